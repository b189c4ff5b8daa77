<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>cudnnsetup</name>
    <message>
        <source>This is not a cuDNN Setup system snapshot (schema %1 expected).</source>
        <translation>这不是 cuDNN Setup 的系统快照（应为 %1 格式）。</translation>
    </message>
    <message>
        <source>The file %1 could not be read.</source>
        <translation>无法读取文件 %1。</translation>
    </message>
    <message>
        <source>The file %1 is unexpectedly large and was not read.</source>
        <translation>文件 %1 大得异常，已跳过读取。</translation>
    </message>
</context>
</TS>
