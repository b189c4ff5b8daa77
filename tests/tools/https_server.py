"""A small HTTPS server for the Windows download test under Wine (tests/windows/tst_win_https.cpp):
serves FOLDER over TLS with CERT and KEY on 127.0.0.1 and writes the port it took into PORTFILE
(a Linux program Wine starts has no pipe back to its Windows parent). Wine starts it as a Linux
program, so that Windows' Schannel talks to a TLS implementation other than its own.

usage: https_server.py FOLDER CERT KEY PORTFILE
"""
import functools
import http.server
import os
import ssl
import sys


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def main():
    folder, cert, key, port_file = sys.argv[1:5]
    handler = functools.partial(Quiet, directory=folder)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    with open(port_file + ".new", "w") as out:
        out.write(str(server.server_address[1]))
    os.replace(port_file + ".new", port_file)
    server.serve_forever()


if __name__ == "__main__":
    main()
