<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en_US">
<context>
    <name>cudnnsetup</name>
    <message>
        <source>This is not a cuDNN Setup system snapshot (schema %1 expected).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The file %1 could not be read.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The file %1 is unexpectedly large and was not read.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
</TS>
