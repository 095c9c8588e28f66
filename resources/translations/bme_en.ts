<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en" sourcelanguage="en">
<context>
    <name>CompanionWindow</name>
    <message numerus="yes">
        <location filename="../../bme_desktop/ui/companion.py" line="205"/>
        <source>Last recall · message {0} · %n memories</source>
        <translation>
            <numerusform>Last recall · message {0} · %n memory</numerusform>
            <numerusform>Last recall · message {0} · %n memories</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>GraphToolbar</name>
    <message numerus="yes">
        <location filename="../../bme_desktop/ui/views/graph_toolbar.py" line="178"/>
        <source>%n step(s) around</source>
        <translation>
            <numerusform>%n step around</numerusform>
            <numerusform>%n steps around</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../bme_desktop/ui/views/graph_toolbar.py" line="204"/>
        <source>Showing this character across %n chat(s), each chat a community; only this chat&apos;s memories can be edited here. Turn off “This character across chats” to go back.</source>
        <translation>
            <numerusform>Showing this character across %n chat, each chat a community; only this chat&apos;s memories can be edited here. Turn off “This character across chats” to go back.</numerusform>
            <numerusform>Showing this character across %n chats, each chat a community; only this chat&apos;s memories can be edited here. Turn off “This character across chats” to go back.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message numerus="yes">
        <location filename="../../bme_desktop/ui/main_window.py" line="320"/>
        <source>Review: %n held back until approved</source>
        <translation>
            <numerusform>Review: %n held back until approved</numerusform>
            <numerusform>Review: %n held back until approved</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../bme_desktop/ui/main_window.py" line="322"/>
        <source>Review: %n to look over</source>
        <translation>
            <numerusform>Review: %n to look over</numerusform>
            <numerusform>Review: %n to look over</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../bme_desktop/ui/main_window.py" line="342"/>
        <source> · about %n min</source>
        <translation>
            <numerusform> · about %n min</numerusform>
            <numerusform> · about %n min</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../bme_desktop/ui/main_window.py" line="344"/>
        <source> · about %n s</source>
        <translation>
            <numerusform> · about %n s</numerusform>
            <numerusform> · about %n s</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Review</name>
    <message numerus="yes">
        <location filename="../../bme_desktop/ui/panels/review.py" line="55"/>
        <source>Promoted to long-term memory after being recalled %n time(s).</source>
        <translation>
            <numerusform>Promoted to long-term memory after being recalled %n time.</numerusform>
            <numerusform>Promoted to long-term memory after being recalled %n times.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ReviewPanel</name>
    <message numerus="yes">
        <location filename="../../bme_desktop/ui/panels/review.py" line="333"/>
        <source>Approved %n memories (U undoes).</source>
        <translation>
            <numerusform>Approved %n memory (U undoes).</numerusform>
            <numerusform>Approved %n memories (U undoes).</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../bme_desktop/ui/panels/review.py" line="337"/>
        <source>Rejected %n memories (U undoes).</source>
        <translation>
            <numerusform>Rejected %n memory (U undoes).</numerusform>
            <numerusform>Rejected %n memories (U undoes).</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>_Counts</name>
    <message numerus="yes">
        <location filename="../../bme_desktop/ui/panels/actions.py" line="150"/>
        <source>{0} of {1} message(s) read</source>
        <translation>
            <numerusform>{0} of {1} message read</numerusform>
            <numerusform>{0} of {1} messages read</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../bme_desktop/ui/panels/actions.py" line="152"/>
        <source>{0} of {1} memory(s) embedded</source>
        <translation>
            <numerusform>{0} of {1} memory embedded</numerusform>
            <numerusform>{0} of {1} memories embedded</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../bme_desktop/ui/panels/actions.py" line="154"/>
        <source>{0} of {1} linked pair(s) revised</source>
        <translation>
            <numerusform>{0} of {1} linked pair revised</numerusform>
            <numerusform>{0} of {1} linked pairs revised</numerusform>
        </translation>
    </message>
</context>
</TS>
