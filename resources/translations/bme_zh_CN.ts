<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN" sourcelanguage="en">
<context>
    <name>Actions</name>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions.py" line="59"/>
        <source>Extract now</source>
        <translation>立即提取</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions.py" line="60"/>
        <source>Extract memories from messages not read yet.</source>
        <translation>从尚未读取的消息中提取记忆。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions.py" line="64"/>
        <source>Rebuild graph</source>
        <translation>重建图谱</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions.py" line="65"/>
        <source>Undo every extraction and extract the whole chat again.</source>
        <translation>撤销所有提取，并重新提取整个聊天。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions.py" line="71"/>
        <source>Rebuild vectors</source>
        <translation>重建向量</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions.py" line="72"/>
        <source>Embed every memory again for recall.</source>
        <translation>为召回重新嵌入每条记忆。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions.py" line="76"/>
        <source>Compress</source>
        <translation>压缩</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions.py" line="77"/>
        <source>Merge long runs of small events.</source>
        <translation>合并一长串细小事件。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions.py" line="81"/>
        <source>Summarize</source>
        <translation>总结</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions.py" line="82"/>
        <source>Write summaries of recent events.</source>
        <translation>为近期事件撰写摘要。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions.py" line="86"/>
        <source>Fold summaries</source>
        <translation>折叠摘要</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions.py" line="87"/>
        <source>Fold old summaries into a higher-level one.</source>
        <translation>把旧摘要折叠成更高一层的摘要。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions.py" line="91"/>
        <source>Reflect</source>
        <translation>反思</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions.py" line="92"/>
        <source>Draw insights from what happened.</source>
        <translation>从发生的事情中得出洞见。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions.py" line="96"/>
        <source>Update persona</source>
        <translation>更新用户画像</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions.py" line="97"/>
        <source>Update the user&apos;s profile from what the story says about them.</source>
        <translation>根据故事中关于用户的内容更新用户画像。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions.py" line="103"/>
        <source>Upkeep</source>
        <translation>维护</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions.py" line="104"/>
        <source>Promote, decay and wake memories as of now.</source>
        <translation>按当前时间晋升、衰减和唤醒记忆。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions.py" line="108"/>
        <source>Consolidate</source>
        <translation>合并去重</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions.py" line="109"/>
        <source>Merge memories that say the same thing.</source>
        <translation>合并内容相同的记忆。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions.py" line="125"/>
        <location filename="../../bme_desktop/ui/panels/actions_ops.py" line="70"/>
        <source>{0} batches extracted in {1} s</source>
        <translation>{1} 秒内提取了 {0} 批</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions.py" line="131"/>
        <source>{0} memories and {1} links changed in {2} s</source>
        <translation>{2} 秒内更改了 {0} 条记忆和 {1} 条关联</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions.py" line="135"/>
        <source>{0} memories changed in {1} s</source>
        <translation>{1} 秒内更改了 {0} 条记忆</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions.py" line="139"/>
        <location filename="../../bme_desktop/ui/panels/actions_ops.py" line="84"/>
        <source> · Ctrl+Z undoes it</source>
        <translation> · Ctrl+Z 可撤销</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions.py" line="169"/>
        <source>Rebuild the memories of this chat from its {0} messages?</source>
        <translation>要根据这个聊天的 {0} 条消息重建记忆吗？</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions.py" line="176"/>
        <source>{0} memories: {1} written or edited by hand are kept; the other {2} ({3}) are removed and the chat is extracted again. What extraction does not write (summaries, reflections, and anything the demo or an older version made) does not come back until its own task runs.</source>
        <translation>共 {0} 条记忆：手动编写或编辑过的 {1} 条会保留；其余 {2} 条（{3}）会被移除，并重新提取整个聊天。提取不会生成的内容（摘要、反思，以及演示或旧版本生成的记忆）要等各自的任务再次运行后才会回来。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions.py" line="184"/>
        <source>Merge memories that say the same thing?</source>
        <translation>要合并内容相同的记忆吗？</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions.py" line="185"/>
        <source>Among the {0} memories of this chat, each pair that says the same thing becomes one; the other goes to the recycle bin.</source>
        <translation>在这个聊天的 {0} 条记忆中，每对内容相同的记忆合并为一条；另一条移入回收站。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions.py" line="191"/>
        <source>Compress long runs of small events?</source>
        <translation>要压缩连串的小事件吗？</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions.py" line="192"/>
        <source>Runs of small events among the {0} memories of this chat are folded into one memory each; the events are archived, not deleted.</source>
        <translation>这个聊天 {0} 条记忆中的连串小事件各自折叠为一条记忆；原事件会归档，不会删除。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions.py" line="198"/>
        <source>Fold old summaries?</source>
        <translation>要折叠旧摘要吗？</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions.py" line="199"/>
        <source>Old summaries of this chat are folded into a higher-level one.</source>
        <translation>这个聊天的旧摘要会折叠成一条更高层的摘要。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions.py" line="203"/>
        <source>One Ctrl+Z undoes the whole run.</source>
        <translation>按一次 Ctrl+Z 即可撤销整个操作。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions.py" line="205"/>
        <source>This cannot be undone: the chat is too large ({0} rows) to keep an undo copy. Export a backup first if you may want it back.</source>
        <translation>此操作无法撤销：聊天太大（{0} 行），无法保留撤销副本。如果之后可能想恢复，请先导出备份。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions.py" line="239"/>
        <location filename="../../bme_desktop/ui/panels/actions_ops.py" line="162"/>
        <source>Stop before the next batch; the batches extracted so far are kept.</source>
        <translation>在下一批开始前停止；已提取的批次会保留。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions.py" line="242"/>
        <source>Stop this task; nothing it changed is kept.</source>
        <translation>停止此任务；它所做的更改都不会保留。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions.py" line="280"/>
        <location filename="../../bme_desktop/ui/panels/actions.py" line="503"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions.py" line="296"/>
        <source>This task cannot be stopped once started.</source>
        <translation>此任务一旦开始便无法停止。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions.py" line="286"/>
        <location filename="../../bme_desktop/ui/panels/actions.py" line="330"/>
        <source>Cancelling…</source>
        <translation>正在取消…</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions.py" line="301"/>
        <location filename="../../bme_desktop/ui/panels/actions.py" line="325"/>
        <source>Running…</source>
        <translation>运行中…</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions_files.py" line="39"/>
        <source>Export chat…</source>
        <translation>导出聊天…</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions_files.py" line="40"/>
        <source>Save the open chat as JSON, GraphML or GEXF.</source>
        <translation>将当前聊天导出为数据文件或图谱文件（三种开放格式）。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions_files.py" line="44"/>
        <source>Import…</source>
        <translation>导入…</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions_files.py" line="45"/>
        <source>Add the chats of a JSON export; nothing is overwritten.</source>
        <translation>添加导出文件中的聊天；不会覆盖任何内容。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions_files.py" line="51"/>
        <source>Import memories…</source>
        <translation>导入记忆…</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions_files.py" line="52"/>
        <source>See what a file would bring (new, updated, skipped, merged), then import it memory by memory.</source>
        <translation>先预览文件会带来什么（新增、更新、跳过、合并），再逐条导入记忆。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions_files.py" line="59"/>
        <source>Import SillyTavern World Info…</source>
        <translation>导入 SillyTavern 世界书…</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions_files.py" line="60"/>
        <source>Add a lorebook&apos;s entries (or a character card&apos;s book) to the open chat&apos;s memories, in the scope you choose.</source>
        <translation>把世界书的条目（或角色卡内嵌的世界书）加入当前聊天的记忆，范围由你选择。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions_files.py" line="68"/>
        <source>Back up all…</source>
        <translation>全部备份…</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions_files.py" line="69"/>
        <source>Save every chat in one file, encrypted if you give a passphrase.</source>
        <translation>将所有聊天保存到一个文件中；提供口令即加密。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions_files.py" line="75"/>
        <source>Restore…</source>
        <translation>恢复…</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions_files.py" line="76"/>
        <source>Bring back the chats of a backup; chats you have are kept.</source>
        <translation>恢复备份中的聊天；已有的聊天保持不变。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions_files.py" line="82"/>
        <source>Purge everything…</source>
        <translation>彻底清除全部…</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions_files.py" line="83"/>
        <source>Delete every chat and memory for good, then compact the database.</source>
        <translation>永久删除所有聊天与记忆，然后压缩数据库。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions_files.py" line="93"/>
        <source>none yet</source>
        <translation>尚无</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions_files.py" line="101"/>
        <source>Last backup: {0} · scheduled backups are off (Settings → Backup).</source>
        <translation>上次备份：{0} · 定时备份已关闭（设置 → 备份）。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions_files.py" line="105"/>
        <source>Last backup: {0} · next: {1}.</source>
        <translation>上次备份：{0} · 下次：{1}。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions_files.py" line="109"/>
        <source>The last scheduled backup was skipped: {0}</source>
        <translation>上次定时备份已跳过：{0}</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions_files.py" line="113"/>
        <source>The last scheduled backup failed: {0}</source>
        <translation>上次定时备份失败：{0}</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions_files.py" line="120"/>
        <source>Purged {0} chats ({1} rows); the database went from {2} KB to {3} KB.</source>
        <translation>已清除 {0} 个聊天（{1} 行）；数据库从 {2} KB 缩小到 {3} KB。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions_files.py" line="132"/>
        <source>Nothing imported.</source>
        <translation>未导入任何内容。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions_files.py" line="134"/>
        <source>Imported {0}: {1} memories, {2} links, {3} messages.</source>
        <translation>已导入 {0}：{1} 条记忆、{2} 条关联、{3} 条消息。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions_files.py" line="143"/>
        <source>Kept the chats you already had: {0}.</source>
        <translation>保留了已有的聊天：{0}。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions_ops.py" line="26"/>
        <source>Extract pending</source>
        <translation>提取待处理消息</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions_ops.py" line="27"/>
        <source>Extract only the messages not extracted yet, as one undo step.</source>
        <translation>只提取尚未提取的消息，作为一步撤销。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions_ops.py" line="33"/>
        <source>Re-extract range</source>
        <translation>重新提取范围</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions_ops.py" line="34"/>
        <source>Roll the extraction back from the range&apos;s first message and extract again from scratch.</source>
        <translation>从范围的第一条消息起回滚提取，并从头重新提取。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions_ops.py" line="41"/>
        <source>Rebuild summaries</source>
        <translation>重建摘要</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions_ops.py" line="42"/>
        <source>Write the summaries again from the extraction batches.</source>
        <translation>根据各提取批次重新写出摘要。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions_ops.py" line="48"/>
        <source>Rebuild range vectors</source>
        <translation>重建范围向量</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions_ops.py" line="49"/>
        <source>Embed again the memories drawn from the range&apos;s messages.</source>
        <translation>重新嵌入来自该范围消息的记忆。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions_ops.py" line="55"/>
        <source>Force evolve</source>
        <translation>强制演化</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions_ops.py" line="56"/>
        <source>New memories revise the older memories they are linked to (by the model, or by the rules offline).</source>
        <translation>新记忆修订与之相连的旧记忆（由模型完成，离线时按规则完成）。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions_ops.py" line="72"/>
        <source>{0} summaries written in {1} s</source>
        <translation>{1} 秒内写出 {0} 条摘要</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions_ops.py" line="74"/>
        <source>{0} memories embedded again in {1} s</source>
        <translation>{1} 秒内重新嵌入 {0} 条记忆</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions_ops.py" line="76"/>
        <source>{0} memories revised by the model in {1} s</source>
        <translation>{1} 秒内由模型修订 {0} 条记忆</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions_ops.py" line="80"/>
        <source>{0} memories revised by the rules in {1} s</source>
        <translation>{1} 秒内按规则修订 {0} 条记忆</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions_ops.py" line="125"/>
        <source>Only messages</source>
        <translation>仅限消息</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions_ops.py" line="127"/>
        <source>Re-extract, Rebuild range vectors and Force evolve work on these messages; without a range, on the whole chat (evolve: on what is new since its last run).</source>
        <translation>重新提取、重建范围向量和强制演化只处理这些消息；不指定范围时处理整个聊天（演化：处理上次运行以来的新内容）。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions_ops.py" line="133"/>
        <source>to</source>
        <translation>至</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions_ops.py" line="146"/>
        <source>Open a chat first.</source>
        <translation>请先打开一个聊天。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions_ops.py" line="148"/>
        <source>No extractor is attached to this data folder.</source>
        <translation>此数据文件夹未配置提取器。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions_ops.py" line="152"/>
        <source>Recall has no vector index in this data folder.</source>
        <translation>此数据文件夹中的召回没有向量索引。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions_ops.py" line="184"/>
        <source>Cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions_ops.py" line="187"/>
        <source>Nothing to do: {0}</source>
        <translation>无事可做：{0}</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions_ops.py" line="190"/>
        <source>Failed: {0}</source>
        <translation>失败：{0}</translation>
    </message>
</context>
<context>
    <name>ActionsPanel</name>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions.py" line="427"/>
        <source>Maintenance</source>
        <translation>维护任务</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions.py" line="428"/>
        <source>Story operations</source>
        <translation>故事操作</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions.py" line="429"/>
        <source>Export and backup</source>
        <translation>导出与备份</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions.py" line="450"/>
        <source>Open a chat first.</source>
        <translation>请先打开一个聊天。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions.py" line="453"/>
        <source>No extractor is attached to this data folder.</source>
        <translation>此数据文件夹未配置提取器。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions.py" line="456"/>
        <source>This version of BME Desktop cannot run this task yet.</source>
        <translation>此版本的 BME Desktop 尚不能运行该任务。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions.py" line="462"/>
        <source>No chat open</source>
        <translation>未打开聊天</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions.py" line="462"/>
        <source>Runs on the chat that is open.</source>
        <translation>作用于当前打开的聊天。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions.py" line="525"/>
        <source>Cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions.py" line="483"/>
        <location filename="../../bme_desktop/ui/panels/actions.py" line="527"/>
        <source>Failed: {0}</source>
        <translation>失败：{0}</translation>
    </message>
</context>
<context>
    <name>Bridge</name>
    <message>
        <location filename="../../bme_desktop/ui/bridge_host.py" line="41"/>
        <source>Bridge: off ({0} is not a loopback address; use bme-desktop serve --allow-remote)</source>
        <translation>桥接：关闭（{0} 不是本机回环地址；请使用 bme-desktop serve --allow-remote）</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/bridge_host.py" line="50"/>
        <source>Bridge: served by another process at {0}</source>
        <translation>桥接：由另一个进程提供，地址 {0}</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/bridge_host.py" line="60"/>
        <source>Bridge: off ({0})</source>
        <translation>桥接：关闭（{0}）</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/bridge_host.py" line="64"/>
        <source>Bridge: {0}</source>
        <translation>桥接：{0}</translation>
    </message>
</context>
<context>
    <name>BridgeBox</name>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_bridge.py" line="81"/>
        <location filename="../../bme_desktop/ui/panels/settings_bridge.py" line="92"/>
        <source>Show</source>
        <translation>显示</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_bridge.py" line="82"/>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_bridge.py" line="83"/>
        <source>Rotate</source>
        <translation>更换</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_bridge.py" line="84"/>
        <source>Make a new token; SillyTavern needs the new one.</source>
        <translation>生成新令牌；酒馆需要改用新令牌。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_bridge.py" line="85"/>
        <source>Install into SillyTavern…</source>
        <translation>安装到酒馆…</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_bridge.py" line="86"/>
        <source>Connected frontends</source>
        <translation>已连接的前端</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_bridge.py" line="81"/>
        <location filename="../../bme_desktop/ui/panels/settings_bridge.py" line="92"/>
        <source>Hide</source>
        <translation>隐藏</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_bridge.py" line="98"/>
        <source>from the environment variable {0}</source>
        <translation>来自环境变量 {0}</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_bridge.py" line="99"/>
        <source>in the system keyring</source>
        <translation>在系统钥匙串中</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_bridge.py" line="101"/>
        <source>in a file in the data folder, readable only by you (no system keyring works here)</source>
        <translation>在数据文件夹中的一个仅你可读的文件里（此处没有可用的系统钥匙串）</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_bridge.py" line="105"/>
        <source>SillyTavern&apos;s extension needs this token. It is kept {0}.</source>
        <translation>酒馆扩展需要此令牌。它保存{0}。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_bridge.py" line="119"/>
        <source>New bridge token: a running bridge accepts only it within a few seconds.</source>
        <translation>已生成新的桥接令牌：运行中的桥接几秒内将只接受新令牌。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_bridge.py" line="124"/>
        <source>Cannot rotate: {0}</source>
        <translation>无法更换：{0}</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_bridge.py" line="130"/>
        <source>Choose the SillyTavern folder</source>
        <translation>选择酒馆（SillyTavern）文件夹</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_bridge.py" line="139"/>
        <source>{0} has no data/&lt;user&gt; folder: is it the SillyTavern folder?</source>
        <translation>{0} 中没有 data/&lt;用户&gt; 文件夹：这是酒馆的文件夹吗？</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_bridge.py" line="146"/>
        <source>SillyTavern user</source>
        <translation>酒馆用户</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_bridge.py" line="146"/>
        <source>Install for which user?</source>
        <translation>为哪个用户安装？</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_bridge.py" line="157"/>
        <source>Installed in {0} and paired with this bridge. Reload SillyTavern: the extension connects by itself.</source>
        <translation>已安装到 {0}，并已与本桥接配对。重新加载 SillyTavern 后扩展会自动连接。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_bridge.py" line="163"/>
        <source>Not installed: {0}</source>
        <translation>未安装：{0}</translation>
    </message>
</context>
<context>
    <name>BridgeClients</name>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_clients.py" line="33"/>
        <source>{0} s ago</source>
        <translation>{0} 秒前</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_clients.py" line="35"/>
        <source>{0} min ago</source>
        <translation>{0} 分钟前</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_clients.py" line="36"/>
        <source>{0} h ago</source>
        <translation>{0} 小时前</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_clients.py" line="42"/>
        <source>sync</source>
        <translation>同步</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_clients.py" line="43"/>
        <source>recall</source>
        <translation>召回</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_clients.py" line="44"/>
        <source>recall warm-up</source>
        <translation>召回预热</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_clients.py" line="45"/>
        <source>kept recall</source>
        <translation>已保存的召回</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_clients.py" line="46"/>
        <source>memories</source>
        <translation>记忆</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_clients.py" line="47"/>
        <source>links</source>
        <translation>关联</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_clients.py" line="48"/>
        <source>maintenance</source>
        <translation>维护</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_clients.py" line="49"/>
        <source>patrol</source>
        <translation>巡查</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_clients.py" line="50"/>
        <source>what is known</source>
        <translation>已知信息</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_clients.py" line="51"/>
        <source>chats</source>
        <translation>聊天</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_clients.py" line="52"/>
        <source>events</source>
        <translation>事件</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_clients.py" line="53"/>
        <source>memory proxy</source>
        <translation>记忆代理</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_clients.py" line="54"/>
        <source>client list</source>
        <translation>客户端列表</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_clients.py" line="56"/>
        <source>other</source>
        <translation>其他</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_clients.py" line="63"/>
        <source>SillyTavern extension</source>
        <translation>酒馆扩展</translation>
    </message>
</context>
<context>
    <name>ChatSwitcher</name>
    <message>
        <location filename="../../bme_desktop/ui/chat_switcher.py" line="88"/>
        <source>Find a chat…</source>
        <translation>查找聊天…</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/chat_switcher.py" line="90"/>
        <source>By character</source>
        <translation>按角色</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/chat_switcher.py" line="91"/>
        <source>By persona</source>
        <translation>按用户身份</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/chat_switcher.py" line="92"/>
        <source>Not grouped</source>
        <translation>不分组</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/chat_switcher.py" line="98"/>
        <source>Group the chats by their character or by your persona: the chats that share its memories</source>
        <translation>按角色或按你的用户身份给聊天分组：同组的聊天共享其记忆</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/chat_switcher.py" line="185"/>
        <source>No character</source>
        <translation>无角色</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/chat_switcher.py" line="185"/>
        <source>No persona</source>
        <translation>无用户身份</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/chat_switcher.py" line="189"/>
        <source>{0} · {1} chats</source>
        <translation>{0} · {1} 个聊天</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/chat_switcher.py" line="191"/>
        <source>{0} · 1 chat</source>
        <translation>{0} · 1 个聊天</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/chat_switcher.py" line="210"/>
        <source>{0} memories · {1}</source>
        <translation>{0} 条记忆 · {1}</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/chat_switcher.py" line="214"/>
        <source>as {0}</source>
        <translation>身份：{0}</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/chat_switcher.py" line="216"/>
        <source>isolated</source>
        <translation>已隔离</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/chat_switcher.py" line="255"/>
        <source>Show this character across chats in the graph</source>
        <translation>在图谱中显示该角色的所有聊天</translation>
    </message>
</context>
<context>
    <name>ClientsBox</name>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_clients.py" line="103"/>
        <source>Who</source>
        <translation>来源</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_clients.py" line="104"/>
        <source>Last seen</source>
        <translation>最近活动</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_clients.py" line="105"/>
        <source>Requests</source>
        <translation>请求数</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_clients.py" line="106"/>
        <source>Last request</source>
        <translation>最近请求</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_clients.py" line="107"/>
        <source>Events</source>
        <translation>事件推送</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_clients.py" line="128"/>
        <source>The bridge is not running in this window, so no frontend can connect.</source>
        <translation>桥接服务未在此窗口中运行，前端无法连接。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_clients.py" line="131"/>
        <source>No frontend has connected yet.</source>
        <translation>尚无前端连接。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_clients.py" line="138"/>
        <source>Refused for a missing or wrong token: {0}, {1}. Check the token in that frontend.</source>
        <translation>因令牌缺失或错误而被拒绝：{0}，{1}。请检查该前端中的令牌。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_clients.py" line="152"/>
        <source>on</source>
        <translation>开</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_clients.py" line="152"/>
        <source>off</source>
        <translation>关</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_clients.py" line="154"/>
        <source>Address: {0}
Origin: {1}
User agent: {2}
First seen: {3}</source>
        <translation>地址：{0}
来源页面：{1}
用户代理：{2}
首次出现：{3}</translation>
    </message>
</context>
<context>
    <name>Companion</name>
    <message>
        <location filename="../../bme_desktop/ui/companion.py" line="51"/>
        <source>Model: {0}</source>
        <translation>模型：{0}</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/companion.py" line="52"/>
        <source>Model: none (offline extraction)</source>
        <translation>模型：无（离线抽取）</translation>
    </message>
</context>
<context>
    <name>CompanionWindow</name>
    <message>
        <location filename="../../bme_desktop/ui/companion.py" line="123"/>
        <source>BME Companion</source>
        <translation>BME 伴侣窗口</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/companion.py" line="67"/>
        <source>Bridge: off</source>
        <translation>桥接：关闭</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/companion.py" line="125"/>
        <source>Search this chat&apos;s memories…</source>
        <translation>搜索本对话的记忆…</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/companion.py" line="126"/>
        <source>Forget (F)</source>
        <translation>遗忘 (F)</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/companion.py" line="274"/>
        <source>Pin (P)</source>
        <translation>固定 (P)</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/companion.py" line="129"/>
        <location filename="../../bme_desktop/ui/companion.py" line="140"/>
        <source>No chat yet</source>
        <translation>还没有对话</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/companion.py" line="202"/>
        <source>No recall yet for this chat.</source>
        <translation>本对话还没有召回。</translation>
    </message>
    <message numerus="yes">
        <location filename="../../bme_desktop/ui/companion.py" line="205"/>
        <source>Last recall · message {0} · %n memories</source>
        <translation>
            <numerusform>最近一次召回 · 第 {0} 条消息 · %n 条记忆</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/companion.py" line="274"/>
        <source>Unpin (P)</source>
        <translation>取消固定 (P)</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/companion.py" line="284"/>
        <source>Forgotten (Ctrl+Z brings it back).</source>
        <translation>已遗忘（Ctrl+Z 可恢复）。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/companion.py" line="305"/>
        <source>Unpinned.</source>
        <translation>已取消固定。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/companion.py" line="316"/>
        <source>Undone.</source>
        <translation>已撤销。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/companion.py" line="316"/>
        <source>Nothing to undo.</source>
        <translation>没有可撤销的操作。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/companion.py" line="305"/>
        <source>Pinned: always kept.</source>
        <translation>已固定：始终保留。</translation>
    </message>
</context>
<context>
    <name>EndpointBox</name>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_endpoint.py" line="78"/>
        <source>API key (kept in the system keyring)</source>
        <translation>接口密钥（保存在系统钥匙串中）</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_endpoint.py" line="80"/>
        <source>Keep API keys in a file only you can read</source>
        <translation>将接口密钥保存在仅你可读的文件中</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_endpoint.py" line="81"/>
        <source>Test connection</source>
        <translation>测试连接</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_endpoint.py" line="103"/>
        <source>A key is stored in the system keyring.</source>
        <translation>系统钥匙串中已保存密钥。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_endpoint.py" line="105"/>
        <source>No key stored.</source>
        <translation>尚未保存密钥。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_endpoint.py" line="109"/>
        <source>No system keyring works here. Tick the box to keep the key in a file in the data folder instead.</source>
        <translation>此处没有可用的系统钥匙串。勾选下方选项即可改为保存在数据文件夹中的文件里。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_endpoint.py" line="113"/>
        <source>A key is stored in a file in the data folder that only you can read.</source>
        <translation>密钥已保存在数据文件夹中一个仅你可读的文件里。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_endpoint.py" line="132"/>
        <source>Enter the endpoint URL first.</source>
        <translation>请先填写端点地址。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_endpoint.py" line="137"/>
        <source>Testing…</source>
        <translation>测试中…</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_endpoint.py" line="143"/>
        <location filename="../../bme_desktop/ui/panels/settings_endpoint.py" line="149"/>
        <source>Failed: {0}</source>
        <translation>失败：{0}</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_endpoint.py" line="151"/>
        <source>Connected in {0} s.</source>
        <translation>已连接，用时 {0} 秒。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_endpoint.py" line="153"/>
        <source>Vectors have {0} dimensions.</source>
        <translation>向量维度为 {0}。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_endpoint.py" line="155"/>
        <source>The model is not in the endpoint&apos;s list.</source>
        <translation>该模型不在端点的模型列表中。</translation>
    </message>
</context>
<context>
    <name>FileActions</name>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions_files.py" line="211"/>
        <source>Open a chat first.</source>
        <translation>请先打开一个聊天。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions_files.py" line="224"/>
        <source>JSON export (*.json)</source>
        <translation>JSON 导出文件 (*.json)</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions_files.py" line="224"/>
        <source>GraphML (*.graphml)</source>
        <translation>GraphML 文件 (*.graphml)</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions_files.py" line="224"/>
        <source>GEXF (*.gexf)</source>
        <translation>GEXF 文件 (*.gexf)</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions_files.py" line="226"/>
        <source>Export chat</source>
        <translation>导出聊天</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions_files.py" line="243"/>
        <source>Import a JSON export</source>
        <translation>导入 JSON 导出文件</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions_files.py" line="243"/>
        <location filename="../../bme_desktop/ui/panels/actions_files.py" line="314"/>
        <source>JSON export (*.json);;All files (*)</source>
        <translation>JSON 导出文件 (*.json);;所有文件 (*)</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions_files.py" line="256"/>
        <location filename="../../bme_desktop/ui/panels/actions_files.py" line="263"/>
        <location filename="../../bme_desktop/ui/panels/actions_files.py" line="269"/>
        <source>Back up all chats</source>
        <translation>备份所有聊天</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions_files.py" line="258"/>
        <source>Backups (*.bmebak *.json.gz);;All files (*)</source>
        <translation>备份文件 (*.bmebak *.json.gz);;所有文件 (*)</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions_files.py" line="263"/>
        <source>Passphrase (leave empty for an unencrypted backup):</source>
        <translation>口令（留空则不加密）：</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions_files.py" line="269"/>
        <source>The passphrase again:</source>
        <translation>再次输入口令：</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions_files.py" line="271"/>
        <source>The passphrases differ; nothing was written.</source>
        <translation>两次输入的口令不一致；未写入任何文件。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions_files.py" line="285"/>
        <location filename="../../bme_desktop/ui/panels/actions_files.py" line="299"/>
        <source>Restore a backup</source>
        <translation>恢复备份</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions_files.py" line="287"/>
        <source>Backups and exports (*.bmebak *.gz *.json);;All files (*)</source>
        <translation>备份与导出文件 (*.bmebak *.gz *.json);;所有文件 (*)</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions_files.py" line="299"/>
        <source>This backup is encrypted. Passphrase:</source>
        <translation>此备份已加密。口令：</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions_files.py" line="294"/>
        <location filename="../../bme_desktop/ui/panels/actions_files.py" line="302"/>
        <location filename="../../bme_desktop/ui/panels/actions_files.py" line="412"/>
        <source>Cancelled; nothing was changed.</source>
        <translation>已取消；未做任何更改。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions_files.py" line="190"/>
        <source>Stop before anything is written; nothing changes.</source>
        <translation>在写入任何内容之前停止；不做任何更改。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions_files.py" line="314"/>
        <source>Import memories</source>
        <translation>导入记忆</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions_files.py" line="327"/>
        <location filename="../../bme_desktop/ui/panels/actions_files.py" line="337"/>
        <source>Import SillyTavern World Info</source>
        <translation>导入 SillyTavern 世界书</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions_files.py" line="329"/>
        <source>World Info and character cards (*.json *.png);;All files (*)</source>
        <translation>世界书和角色卡 (*.json *.png);;所有文件 (*)</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions_files.py" line="338"/>
        <source>Who remembers the entries:</source>
        <translation>由谁记住这些条目：</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions_files.py" line="354"/>
        <source>Added {0} memories from “{1}”.</source>
        <translation>已从“{1}”添加 {0} 条记忆。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions_files.py" line="356"/>
        <source>{0} were here already.</source>
        <translation>{0} 条已存在。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions_files.py" line="358"/>
        <source>{0} switched off in the file were left out.</source>
        <translation>文件中已关闭的 {0} 条未导入。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions_files.py" line="373"/>
        <source>Imported: {0}</source>
        <translation>已导入：{0}</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions_files.py" line="381"/>
        <source>Purge everything</source>
        <translation>彻底清除全部</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions_files.py" line="383"/>
        <source>Every chat and memory is deleted for good: no recycle bin, no undo. Make a backup first if you may want them back.

Type {0} to confirm:</source>
        <translation>所有聊天与记忆都将被永久删除：不进回收站，无法撤销。若之后可能还需要，请先备份。

输入 {0} 以确认：</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions_files.py" line="390"/>
        <source>Not confirmed; nothing was deleted.</source>
        <translation>未确认；没有删除任何内容。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions_files.py" line="414"/>
        <source>Failed: {0}</source>
        <translation>失败：{0}</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions_files.py" line="426"/>
        <source>Wrote {0} ({1} KB).</source>
        <translation>已写入 {0}（{1} KB）。</translation>
    </message>
</context>
<context>
    <name>Graph2DView</name>
    <message>
        <location filename="../../bme_desktop/ui/views/graph2d/view.py" line="213"/>
        <source>Objective</source>
        <translation>客观</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/views/graph2d/view.py" line="213"/>
        <source>{0}&apos;s view</source>
        <translation>{0} 的视角</translation>
    </message>
</context>
<context>
    <name>GraphLegend</name>
    <message>
        <location filename="../../bme_desktop/ui/views/legend.py" line="83"/>
        <source>Communities</source>
        <translation>社群</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/views/legend.py" line="83"/>
        <source>Types</source>
        <translation>类型</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/views/legend.py" line="85"/>
        <source>Chats</source>
        <translation>聊天</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/views/legend.py" line="86"/>
        <source>Other and unlinked</source>
        <translation>其他与未连接</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/views/legend.py" line="86"/>
        <source>Other</source>
        <translation>其他</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/views/legend.py" line="88"/>
        <source>Communities (finding…)</source>
        <translation>社群（计算中…）</translation>
    </message>
</context>
<context>
    <name>GraphPage</name>
    <message>
        <location filename="../../bme_desktop/ui/views/graph_page.py" line="106"/>
        <source>This memory belongs to chat “{0}”: open that chat to edit it.</source>
        <translation>这条记忆属于聊天“{0}”：请打开那个聊天来编辑它。</translation>
    </message>
</context>
<context>
    <name>GraphToolbar</name>
    <message>
        <location filename="../../bme_desktop/ui/views/graph_toolbar.py" line="146"/>
        <location filename="../../bme_desktop/ui/views/graph_toolbar.py" line="174"/>
        <source>Types</source>
        <translation>类型</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/views/graph_toolbar.py" line="147"/>
        <source>Tiers</source>
        <translation>层级</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/views/graph_toolbar.py" line="152"/>
        <source>Scopes</source>
        <translation>范围</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/views/graph_toolbar.py" line="154"/>
        <source>Who else remembers a memory: this chat, the character, your persona, the world</source>
        <translation>还有谁记得这条记忆：本聊天、角色、你的身份、世界</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/views/graph_toolbar.py" line="158"/>
        <source>Search the graph…</source>
        <translation>在图谱中搜索…</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/views/graph_toolbar.py" line="159"/>
        <source>Lanes</source>
        <translation>视角分道</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/views/graph_toolbar.py" line="160"/>
        <source>Point-of-view lanes: each owner&apos;s memories in a column</source>
        <translation>视角分道：每个角色的记忆各占一列</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/views/graph_toolbar.py" line="161"/>
        <source>Last recall</source>
        <translation>上次召回</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/views/graph_toolbar.py" line="162"/>
        <source>Light up the memories the newest recall put in the prompt</source>
        <translation>高亮最近一次召回放进提示词的记忆</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/views/graph_toolbar.py" line="163"/>
        <source>This character across chats</source>
        <translation>该角色的所有聊天</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/views/graph_toolbar.py" line="166"/>
        <source>Show the memories of this chat&apos;s character from all its chats, each chat a colour (with Communities); memories of other chats are read-only here</source>
        <translation>显示本聊天角色在其所有聊天中的记忆，每个聊天一种颜色（按社区着色时）；其他聊天的记忆在这里只读</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/views/graph_toolbar.py" line="171"/>
        <source>What the node colours show; the legend on the graph says what each colour means</source>
        <translation>节点颜色表示什么；图上的图例说明每种颜色的含义</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/views/graph_toolbar.py" line="173"/>
        <source>Communities</source>
        <translation>社群</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/views/graph_toolbar.py" line="175"/>
        <source>Show only the selected memory and what lies a few links away from it</source>
        <translation>只显示选中的记忆及其几步之内相连的记忆</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/views/graph_toolbar.py" line="176"/>
        <source>Whole graph</source>
        <translation>整个图</translation>
    </message>
    <message numerus="yes">
        <location filename="../../bme_desktop/ui/views/graph_toolbar.py" line="178"/>
        <source>%n step(s) around</source>
        <translation>
            <numerusform>周围 %n 步</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/views/graph_toolbar.py" line="179"/>
        <source>Layout</source>
        <translation>布局</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/views/graph_toolbar.py" line="180"/>
        <source>Run or stop the layout; dragged nodes stay pinned</source>
        <translation>运行或停止布局；拖动过的节点保持固定</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/views/graph_toolbar.py" line="181"/>
        <source>Forces</source>
        <translation>力度</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/views/graph_toolbar.py" line="182"/>
        <source>How far nodes push apart and how hard they are pulled to the centre</source>
        <translation>节点彼此推开多远，以及被拉向中心的力度</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/views/graph_toolbar.py" line="183"/>
        <source>Spread</source>
        <translation>分散</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/views/graph_toolbar.py" line="184"/>
        <source>Pull to centre</source>
        <translation>向心拉力</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/views/graph_toolbar.py" line="186"/>
        <source>The graph as of a message: drag left to see memory grow over the story</source>
        <translation>截至某条消息时的图：向左拖动，看记忆如何随故事增长</translation>
    </message>
    <message numerus="yes">
        <location filename="../../bme_desktop/ui/views/graph_toolbar.py" line="204"/>
        <source>Showing this character across %n chat(s), each chat a community; only this chat&apos;s memories can be edited here. Turn off “This character across chats” to go back.</source>
        <translation>
            <numerusform>正在显示该角色的 %n 个聊天，每个聊天一个社区；这里只能编辑本聊天的记忆。关闭“该角色的所有聊天”即可返回。</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/views/graph_toolbar.py" line="292"/>
        <source>All messages</source>
        <translation>全部消息</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/views/graph_toolbar.py" line="294"/>
        <source>As of message {0} of this chat</source>
        <translation>截至本聊天第 {0} 条消息</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/views/graph_toolbar.py" line="296"/>
        <source>As of message {0}</source>
        <translation>截至第 {0} 条消息</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/views/graph_toolbar.py" line="323"/>
        <source>No recall yet in this chat.</source>
        <translation>此聊天尚无召回。</translation>
    </message>
</context>
<context>
    <name>GraphViews</name>
    <message>
        <location filename="../../bme_desktop/ui/views/gl_probe.py" line="42"/>
        <source>the “{0}” display platform has no OpenGL</source>
        <translation>“{0}”显示平台不支持 OpenGL</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/views/gl_probe.py" line="46"/>
        <source>no OpenGL context could be created</source>
        <translation>无法创建 OpenGL 上下文</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/views/gl_probe.py" line="48"/>
        <source>the OpenGL context could not be made current</source>
        <translation>无法激活 OpenGL 上下文</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/views/gl_probe.py" line="50"/>
        <source>OpenGL failed: {0}</source>
        <translation>OpenGL 出错：{0}</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/views/gl_probe.py" line="60"/>
        <source>{0} needs OpenGL, which is not available here ({1}).</source>
        <translation>{0}需要 OpenGL，但此处不可用（{1}）。</translation>
    </message>
</context>
<context>
    <name>ImportPreview</name>
    <message>
        <location filename="../../bme_desktop/ui/panels/import_preview.py" line="41"/>
        <source>Skip memories already here (safe to repeat)</source>
        <translation>跳过已有的记忆（可放心重复导入）</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/import_preview.py" line="42"/>
        <source>Merge into the memories here</source>
        <translation>合并到已有的记忆</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/import_preview.py" line="43"/>
        <source>Add every memory as new</source>
        <translation>全部作为新记忆添加</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/import_preview.py" line="44"/>
        <source>Replace the chats of the file</source>
        <translation>替换文件中的聊天</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/import_preview.py" line="51"/>
        <source>New</source>
        <translation>新增</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/import_preview.py" line="52"/>
        <source>Updated</source>
        <translation>更新</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/import_preview.py" line="53"/>
        <source>Skipped</source>
        <translation>跳过</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/import_preview.py" line="54"/>
        <source>Merged</source>
        <translation>合并</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/import_preview.py" line="55"/>
        <source>Deleted</source>
        <translation>删除</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/import_preview.py" line="63"/>
        <source>{0} new, {1} updated, {2} skipped, {3} merged, {4} deleted memories; {5} links and {6} messages added.</source>
        <translation>记忆：新增 {0}、更新 {1}、跳过 {2}、合并 {3}、删除 {4}；新增关联 {5} 条、消息 {6} 条。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/import_preview.py" line="79"/>
        <source>New chats: {0}</source>
        <translation>新聊天：{0}</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/import_preview.py" line="86"/>
        <source>Nothing would change: everything is here already.</source>
        <translation>不会有任何变化：所有内容都已存在。</translation>
    </message>
</context>
<context>
    <name>ImportPreviewDialog</name>
    <message>
        <location filename="../../bme_desktop/ui/panels/import_preview.py" line="102"/>
        <source>Import memories</source>
        <translation>导入记忆</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/import_preview.py" line="110"/>
        <location filename="../../bme_desktop/ui/panels/import_preview.py" line="140"/>
        <source>Computing the preview…</source>
        <translation>正在计算预览…</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/import_preview.py" line="114"/>
        <source>Type {0} to replace:</source>
        <translation>输入 {0} 以确认替换：</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/import_preview.py" line="116"/>
        <source>Import</source>
        <translation>导入</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/import_preview.py" line="121"/>
        <source>Mode</source>
        <translation>模式</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/import_preview.py" line="153"/>
        <location filename="../../bme_desktop/ui/panels/import_preview.py" line="175"/>
        <source>Failed: {0}</source>
        <translation>失败：{0}</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/import_preview.py" line="166"/>
        <source>Importing…</source>
        <translation>正在导入…</translation>
    </message>
</context>
<context>
    <name>InjectionLabels</name>
    <message>
        <location filename="../../bme_desktop/ui/panels/injection_labels.py" line="10"/>
        <source>Meaning</source>
        <translation>语义</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/injection_labels.py" line="11"/>
        <source>Words</source>
        <translation>词语</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/injection_labels.py" line="12"/>
        <source>Links</source>
        <translation>关联</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/injection_labels.py" line="13"/>
        <source>Importance</source>
        <translation>重要度</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/injection_labels.py" line="14"/>
        <source>Anchor</source>
        <translation>锚定</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/injection_labels.py" line="15"/>
        <source>Relevance</source>
        <translation>相关度</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/injection_labels.py" line="16"/>
        <source>Retrievability</source>
        <translation>可提取度</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/injection_labels.py" line="17"/>
        <source>× life cycle</source>
        <translation>× 生命周期</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/injection_labels.py" line="18"/>
        <source>× point of view</source>
        <translation>× 视角</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/injection_labels.py" line="19"/>
        <source>× time region</source>
        <translation>× 时间区段</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/injection_labels.py" line="20"/>
        <source>× recency</source>
        <translation>× 新近度</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/injection_labels.py" line="21"/>
        <source>× repeat</source>
        <translation>× 重复</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/injection_labels.py" line="22"/>
        <source>× day</source>
        <translation>× 日期</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/injection_labels.py" line="23"/>
        <source>Archive</source>
        <translation>存档</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/injection_labels.py" line="24"/>
        <source>Core</source>
        <translation>核心</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/injection_labels.py" line="25"/>
        <source>Rerank position</source>
        <translation>重排名次</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/injection_labels.py" line="27"/>
        <source>Other factor</source>
        <translation>其他因素</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/injection_labels.py" line="34"/>
        <source>Meaning search</source>
        <translation>语义检索</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/injection_labels.py" line="35"/>
        <source>Link spreading</source>
        <translation>关联扩散</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/injection_labels.py" line="36"/>
        <source>Reranking</source>
        <translation>重排</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/injection_labels.py" line="37"/>
        <source>Diversity</source>
        <translation>多样化</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/injection_labels.py" line="38"/>
        <source>Recall</source>
        <translation>召回</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/injection_labels.py" line="40"/>
        <source>Other stage</source>
        <translation>其他阶段</translation>
    </message>
</context>
<context>
    <name>InjectionPanel</name>
    <message>
        <location filename="../../bme_desktop/ui/panels/injection.py" line="211"/>
        <source>Pick a recall to see what was injected.</source>
        <translation>选择一次召回，查看注入的内容。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/injection.py" line="88"/>
        <source>Edit</source>
        <translation>编辑</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/injection.py" line="89"/>
        <source>Save</source>
        <translation>保存</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/injection.py" line="90"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/injection.py" line="91"/>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/injection.py" line="92"/>
        <source>Re-run</source>
        <translation>重新召回</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/injection.py" line="93"/>
        <source>Recall again for this message and replace the kept record</source>
        <translation>为这条消息重新召回，并替换保留的记录</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/injection.py" line="94"/>
        <source>Kept recalls</source>
        <translation>保留的召回</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/injection.py" line="95"/>
        <source>Playground</source>
        <translation>试验场</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/injection.py" line="115"/>
        <source>Saving…</source>
        <translation>正在保存…</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/injection.py" line="123"/>
        <source>Delete kept recall</source>
        <translation>删除保留的召回</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/injection.py" line="124"/>
        <source>Delete the kept recall of message {0}? This cannot be undone.</source>
        <translation>删除消息 {0} 保留的召回？此操作无法撤销。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/injection.py" line="130"/>
        <source>Deleting…</source>
        <translation>正在删除…</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/injection.py" line="135"/>
        <source>Recalling again…</source>
        <translation>正在重新召回…</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/injection.py" line="177"/>
        <source>#{0}  {1}</source>
        <translation>#{0}  {1}</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/injection.py" line="210"/>
        <source>No recall kept for this chat yet.</source>
        <translation>此聊天还没有保存的召回记录。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/injection.py" line="215"/>
        <source>Message {0} · {1} memories · ~{2} tokens · {3} ms</source>
        <translation>消息 {0} · {1} 条记忆 · 约 {2} 个词元 · {3} 毫秒</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/injection.py" line="219"/>
        <source>Message {0} · no memory matched · {1} ms</source>
        <translation>消息 {0} · 没有匹配的记忆 · {1} 毫秒</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/injection.py" line="223"/>
        <source> · edited by hand</source>
        <translation> · 已手动编辑</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/injection.py" line="226"/>
        <source>Nothing was injected for message {0}.</source>
        <translation>消息 {0} 没有注入任何内容。</translation>
    </message>
</context>
<context>
    <name>InjectionPlayground</name>
    <message>
        <location filename="../../bme_desktop/ui/panels/injection_playground.py" line="85"/>
        <source>Type a message to see what recall would inject for it.</source>
        <translation>输入一条消息，查看召回会为它注入什么。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/injection_playground.py" line="86"/>
        <source>Memories: </source>
        <translation>记忆数：</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/injection_playground.py" line="87"/>
        <source>Budget: </source>
        <translation>预算：</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/injection_playground.py" line="88"/>
        <source> tokens</source>
        <translation> 词元</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/injection_playground.py" line="89"/>
        <source>Recall</source>
        <translation>召回</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/injection_playground.py" line="90"/>
        <source>Run recall on this input without keeping a record</source>
        <translation>对这段输入运行召回，不保留记录</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/injection_playground.py" line="91"/>
        <source>The injection text appears here.</source>
        <translation>注入文本会显示在这里。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/injection_playground.py" line="98"/>
        <source>Open a chat and type an input first.</source>
        <translation>请先打开一个对话并输入内容。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/injection_playground.py" line="102"/>
        <source>Recalling…</source>
        <translation>正在召回…</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/injection_playground.py" line="106"/>
        <source>Recall failed: {0}</source>
        <translation>召回失败：{0}</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/injection_playground.py" line="121"/>
        <source>Nothing recalled yet.</source>
        <translation>尚未召回。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/injection_playground.py" line="124"/>
        <location filename="../../bme_desktop/ui/panels/injection_playground.py" line="139"/>
        <source>Memory</source>
        <translation>记忆</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/injection_playground.py" line="124"/>
        <location filename="../../bme_desktop/ui/panels/injection_playground.py" line="139"/>
        <source>Score</source>
        <translation>得分</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/injection_playground.py" line="127"/>
        <source>{0} memories · ~{1} tokens · {2} ms</source>
        <translation>{0} 条记忆 · 约 {1} 词元 · {2} 毫秒</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/injection_playground.py" line="132"/>
        <source>Skipped: {0}</source>
        <translation>已跳过：{0}</translation>
    </message>
</context>
<context>
    <name>Labels</name>
    <message>
        <location filename="../../bme_desktop/ui/labels.py" line="10"/>
        <source>Event</source>
        <translation>事件</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/labels.py" line="11"/>
        <location filename="../../bme_desktop/ui/labels.py" line="93"/>
        <source>Character</source>
        <translation>角色</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/labels.py" line="12"/>
        <source>Location</source>
        <translation>地点</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/labels.py" line="13"/>
        <source>Rule</source>
        <translation>规则</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/labels.py" line="14"/>
        <source>Plot thread</source>
        <translation>剧情线</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/labels.py" line="15"/>
        <source>Fact</source>
        <translation>事实</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/labels.py" line="16"/>
        <location filename="../../bme_desktop/ui/labels.py" line="44"/>
        <source>Summary</source>
        <translation>摘要</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/labels.py" line="17"/>
        <source>Reflection</source>
        <translation>反思</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/labels.py" line="18"/>
        <source>Point of view</source>
        <translation>视角记忆</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/labels.py" line="25"/>
        <source>Short-term</source>
        <translation>短期</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/labels.py" line="26"/>
        <source>Long-term</source>
        <translation>长期</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/labels.py" line="27"/>
        <source>Dormant</source>
        <translation>休眠</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/labels.py" line="28"/>
        <source>Archived</source>
        <translation>归档</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/labels.py" line="35"/>
        <source>Pending</source>
        <translation>待审</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/labels.py" line="36"/>
        <source>Approved</source>
        <translation>已通过</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/labels.py" line="37"/>
        <source>Rejected</source>
        <translation>已拒绝</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/labels.py" line="45"/>
        <source>Title</source>
        <translation>标题</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/labels.py" line="46"/>
        <source>Participants</source>
        <translation>参与者</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/labels.py" line="47"/>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/labels.py" line="48"/>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/labels.py" line="49"/>
        <source>Traits</source>
        <translation>特征</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/labels.py" line="50"/>
        <source>State</source>
        <translation>现状</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/labels.py" line="51"/>
        <source>Goal</source>
        <translation>目标</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/labels.py" line="52"/>
        <source>Inventory</source>
        <translation>物品</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/labels.py" line="53"/>
        <source>Core note</source>
        <translation>核心备注</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/labels.py" line="69"/>
        <source>Aliases</source>
        <translation>别名</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/labels.py" line="92"/>
        <source>This chat</source>
        <translation>本聊天</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/labels.py" line="94"/>
        <source>Persona</source>
        <translation>用户身份</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/labels.py" line="95"/>
        <source>World</source>
        <translation>世界</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/labels.py" line="102"/>
        <source>Lorebook</source>
        <translation>世界书</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/labels.py" line="110"/>
        <source>New memory</source>
        <translation>新建记忆</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/labels.py" line="111"/>
        <source>Edit</source>
        <translation>编辑</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/labels.py" line="112"/>
        <source>Scope change</source>
        <translation>更改范围</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/labels.py" line="113"/>
        <source>World Info import</source>
        <translation>导入世界书</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/labels.py" line="114"/>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/labels.py" line="115"/>
        <source>Restore</source>
        <translation>恢复</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/labels.py" line="116"/>
        <source>Link</source>
        <translation>关联</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/labels.py" line="117"/>
        <source>Unlink</source>
        <translation>取消关联</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/labels.py" line="118"/>
        <source>Merge</source>
        <translation>合并</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/labels.py" line="119"/>
        <source>Wake</source>
        <translation>唤醒</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/labels.py" line="120"/>
        <source>Trait rejected</source>
        <translation>拒绝特征</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/labels.py" line="121"/>
        <source>Trait restored</source>
        <translation>恢复特征</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/labels.py" line="122"/>
        <source>Approve</source>
        <translation>批准</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/labels.py" line="123"/>
        <source>Reject</source>
        <translation>驳回</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/labels.py" line="124"/>
        <source>Back to review</source>
        <translation>退回审核</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/labels.py" line="54"/>
        <source>Features</source>
        <translation>特点</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/labels.py" line="55"/>
        <source>Danger</source>
        <translation>危险</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/labels.py" line="56"/>
        <source>Constraint</source>
        <translation>约束</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/labels.py" line="57"/>
        <source>Scope</source>
        <translation>范围</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/labels.py" line="58"/>
        <source>Statement</source>
        <translation>陈述</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/labels.py" line="59"/>
        <source>Subject</source>
        <translation>主体</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/labels.py" line="60"/>
        <source>Category</source>
        <translation>类别</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/labels.py" line="61"/>
        <source>Insight</source>
        <translation>洞见</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/labels.py" line="62"/>
        <source>Trigger</source>
        <translation>触发</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/labels.py" line="63"/>
        <source>Suggestion</source>
        <translation>建议</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/labels.py" line="64"/>
        <source>Belief</source>
        <translation>信念</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/labels.py" line="65"/>
        <source>Emotion</source>
        <translation>情绪</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/labels.py" line="66"/>
        <source>Attitude</source>
        <translation>态度</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/labels.py" line="67"/>
        <source>Certainty</source>
        <translation>确信度</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/labels.py" line="68"/>
        <source>About</source>
        <translation>关于</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/labels.py" line="76"/>
        <source>related to</source>
        <translation>相关</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/labels.py" line="77"/>
        <source>involved in</source>
        <translation>参与</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/labels.py" line="78"/>
        <source>occurred at</source>
        <translation>发生于</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/labels.py" line="79"/>
        <source>advances</source>
        <translation>推进</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/labels.py" line="80"/>
        <source>updates</source>
        <translation>更新</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/labels.py" line="81"/>
        <source>contradicts</source>
        <translation>矛盾</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/labels.py" line="82"/>
        <source>evolves into</source>
        <translation>演变为</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/labels.py" line="83"/>
        <source>is a later state of</source>
        <translation>是其后续状态</translation>
    </message>
</context>
<context>
    <name>LinkDialog</name>
    <message>
        <location filename="../../bme_desktop/ui/memory_detail_dialogs.py" line="68"/>
        <source>Link “{0}” to…</source>
        <translation>将“{0}”关联到…</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/memory_detail_dialogs.py" line="71"/>
        <source>Search memories…</source>
        <translation>搜索记忆…</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/memory_detail_dialogs.py" line="88"/>
        <source>Relation</source>
        <translation>关系</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/memory_detail_dialogs.py" line="133"/>
        <source>Linked (Ctrl+Z undoes it).</source>
        <translation>已关联（Ctrl+Z 可撤销）。</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <location filename="../../bme_desktop/ui/main_window.py" line="138"/>
        <source>Chats</source>
        <translation>聊天</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/main_window.py" line="129"/>
        <location filename="../../bme_desktop/ui/main_window.py" line="166"/>
        <source>Details…</source>
        <translation>详情…</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/main_window.py" line="130"/>
        <location filename="../../bme_desktop/ui/main_window.py" line="176"/>
        <source>Data: {0}</source>
        <translation>数据：{0}</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/main_window.py" line="132"/>
        <location filename="../../bme_desktop/ui/main_window.py" line="178"/>
        <source>Bridge: off</source>
        <translation>桥接：关闭</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/main_window.py" line="198"/>
        <source>Database: SQLite</source>
        <translation>数据库：SQLite</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/main_window.py" line="199"/>
        <source>Database: {0}</source>
        <translation>数据库：{0}</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/main_window.py" line="239"/>
        <source>The “{0}” panel has no tab called “{1}”.</source>
        <translation>“{0}”面板没有名为“{1}”的标签页。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/main_window.py" line="245"/>
        <source>The “{0}” panel is not in this version yet.</source>
        <translation>此版本还没有“{0}”面板。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/main_window.py" line="247"/>
        <source>There is no panel called “{0}”.</source>
        <translation>没有名为“{0}”的面板。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/main_window.py" line="252"/>
        <source>Open a data folder</source>
        <translation>打开数据文件夹</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/main_window.py" line="279"/>
        <source>Error: {0}</source>
        <translation>错误：{0}</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/main_window.py" line="291"/>
        <source>Error details</source>
        <translation>错误详情</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/main_window.py" line="292"/>
        <source>Something went wrong.</source>
        <translation>出错了。</translation>
    </message>
    <message numerus="yes">
        <location filename="../../bme_desktop/ui/main_window.py" line="320"/>
        <source>Review: %n held back until approved</source>
        <translation>
            <numerusform>待审：%n 条记忆获批前不注入</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../bme_desktop/ui/main_window.py" line="322"/>
        <source>Review: %n to look over</source>
        <translation>
            <numerusform>待审：%n 条记忆待查看</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/main_window.py" line="326"/>
        <source>Working…</source>
        <translation>处理中…</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/main_window.py" line="338"/>
        <source>Remembering: {0} of {1} messages</source>
        <translation>正在记忆：{1} 条消息中已完成 {0} 条</translation>
    </message>
    <message numerus="yes">
        <location filename="../../bme_desktop/ui/main_window.py" line="342"/>
        <source> · about %n min</source>
        <translation>
            <numerusform> · 约 %n 分钟</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../bme_desktop/ui/main_window.py" line="344"/>
        <source> · about %n s</source>
        <translation>
            <numerusform> · 约 %n 秒</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/main_window.py" line="351"/>
        <source>{0} memories removed.</source>
        <translation>已移除 {0} 条记忆。</translation>
    </message>
</context>
<context>
    <name>MemoriesPanel</name>
    <message>
        <location filename="../../bme_desktop/ui/panels/memories.py" line="100"/>
        <source>Search memories…</source>
        <translation>搜索记忆…</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/memories.py" line="102"/>
        <source>All types</source>
        <translation>全部类型</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/memories.py" line="103"/>
        <source>All tiers</source>
        <translation>全部层级</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/memories.py" line="104"/>
        <source>Any review</source>
        <translation>全部审核状态</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/memories.py" line="105"/>
        <source>All scopes</source>
        <translation>全部范围</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/memories.py" line="112"/>
        <source>Who else remembers it: this chat only, every chat with the character, every chat of your persona, every chat in the world</source>
        <translation>还有谁记得它：仅本聊天、与该角色的所有聊天、你这个用户身份的所有聊天、同一世界的所有聊天</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/memories.py" line="116"/>
        <source>New memory</source>
        <translation>新建记忆</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/memories.py" line="145"/>
        <source>{0} of {1} memories</source>
        <translation>{1} 条记忆中的 {0} 条</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/memories.py" line="148"/>
        <source>1 memory</source>
        <translation>1 条记忆</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/memories.py" line="150"/>
        <source>{0} memories</source>
        <translation>{0} 条记忆</translation>
    </message>
</context>
<context>
    <name>MemoryDetails</name>
    <message>
        <location filename="../../bme_desktop/ui/memory_detail.py" line="34"/>
        <source>created</source>
        <translation>创建</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/memory_detail.py" line="35"/>
        <source>edited</source>
        <translation>编辑</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/memory_detail.py" line="36"/>
        <source>deleted</source>
        <translation>删除</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/memory_detail.py" line="37"/>
        <source>restored</source>
        <translation>恢复</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/memory_detail.py" line="38"/>
        <source>merged another memory in</source>
        <translation>并入了另一条记忆</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/memory_detail.py" line="40"/>
        <source>no longer true, superseded by</source>
        <translation>已不再成立，取代它的是</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/memory_detail.py" line="39"/>
        <source>replaced</source>
        <translation>替换</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/memory_detail.py" line="49"/>
        <source>User</source>
        <translation>用户</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/memory_detail.py" line="50"/>
        <source>Assistant</source>
        <translation>助手</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/memory_detail.py" line="51"/>
        <source>System</source>
        <translation>系统</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/memory_detail.py" line="59"/>
        <source>earlier</source>
        <translation>更早</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/memory_detail.py" line="105"/>
        <source>Link…</source>
        <translation>关联…</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/memory_detail.py" line="106"/>
        <source>Unlink</source>
        <translation>取消关联</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/memory_detail.py" line="107"/>
        <source>Sources</source>
        <translation>来源</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/memory_detail.py" line="107"/>
        <source>History</source>
        <translation>历史</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/memory_detail.py" line="107"/>
        <source>Links</source>
        <translation>关联</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/memory_detail.py" line="145"/>
        <source>Link removed (Ctrl+Z undoes it).</source>
        <translation>已取消关联（Ctrl+Z 可撤销）。</translation>
    </message>
</context>
<context>
    <name>MemoryOps</name>
    <message>
        <location filename="../../bme_desktop/ui/panels/memories_ops.py" line="56"/>
        <location filename="../../bme_desktop/ui/panels/memories_ops.py" line="89"/>
        <source>Merge</source>
        <translation>合并</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/memories_ops.py" line="79"/>
        <source>Pin</source>
        <translation>置顶</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/memories_ops.py" line="60"/>
        <source>Move to tier…</source>
        <translation>移到层级…</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/memories_ops.py" line="58"/>
        <source>Merge the second selected memory into the first (it asks first, naming the one kept)</source>
        <translation>把第二条选中的记忆合并进第一条（会先询问，并说明保留哪一条）</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/memories_ops.py" line="63"/>
        <source>Export as World Info…</source>
        <translation>导出为世界书…</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/memories_ops.py" line="66"/>
        <source>Save the selected memories as a SillyTavern World Info file (its World Info editor imports it)</source>
        <translation>把选中的记忆保存为 SillyTavern 世界书文件（可在其世界书编辑器中导入）</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/memories_ops.py" line="79"/>
        <source>Unpin</source>
        <translation>取消置顶</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/memories_ops.py" line="90"/>
        <source>Keep “{0}” and merge “{1}” into it?</source>
        <translation>保留“{0}”，并把“{1}”合并进去？</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/memories_ops.py" line="96"/>
        <source>“{0}” is kept: it takes the other&apos;s sources, links and the fields it lacks. “{1}” goes to the recycle bin. Ctrl+Z undoes the merge.</source>
        <translation>保留“{0}”：它接收另一条的来源、关联以及它缺少的字段。“{1}”移入回收站。Ctrl+Z 可撤销合并。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/memories_ops.py" line="102"/>
        <source>Keep “{0}”</source>
        <translation>保留“{0}”</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/memories_ops.py" line="105"/>
        <source>Keep “{0}” instead</source>
        <translation>改为保留“{0}”</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/memories_ops.py" line="107"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/memories_ops.py" line="147"/>
        <source>Changed “{0}”.</source>
        <translation>已更改“{0}”。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/memories_ops.py" line="158"/>
        <source>Export as SillyTavern World Info</source>
        <translation>导出为 SillyTavern 世界书</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/memories_ops.py" line="160"/>
        <source>World Info (*.json)</source>
        <translation>世界书 (*.json)</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/memories_ops.py" line="169"/>
        <source>Wrote {0} memories to {1}.</source>
        <translation>已把 {0} 条记忆写入 {1}。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/memories_ops.py" line="171"/>
        <source>Export failed: {0}</source>
        <translation>导出失败：{0}</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/memories_ops.py" line="177"/>
        <source>Merged into “{0}” (Ctrl+Z undoes it).</source>
        <translation>已并入“{0}”（Ctrl+Z 可撤销）。</translation>
    </message>
</context>
<context>
    <name>MemoryTable</name>
    <message>
        <location filename="../../bme_desktop/ui/memory_model.py" line="54"/>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/memory_model.py" line="55"/>
        <source>Title</source>
        <translation>标题</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/memory_model.py" line="56"/>
        <source>Scope</source>
        <translation>范围</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/memory_model.py" line="57"/>
        <source>Tier</source>
        <translation>层级</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/memory_model.py" line="58"/>
        <source>Importance</source>
        <translation>重要度</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/memory_model.py" line="59"/>
        <source>Review</source>
        <translation>审核</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/memory_model.py" line="60"/>
        <source>Recalls</source>
        <translation>召回</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/memory_model.py" line="61"/>
        <source>Updated</source>
        <translation>更新时间</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/memory_model.py" line="75"/>
        <source>Only this chat remembers it</source>
        <translation>只有本聊天记得它</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/memory_model.py" line="76"/>
        <source>Every chat with this character remembers it</source>
        <translation>与该角色的所有聊天都记得它</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/memory_model.py" line="79"/>
        <source>Every chat of your persona remembers it</source>
        <translation>你这个用户身份的所有聊天都记得它</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/memory_model.py" line="80"/>
        <source>Every chat in this world remembers it</source>
        <translation>同一世界的所有聊天都记得它</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/memory_model.py" line="83"/>
        <source>From the SillyTavern lorebook “{0}” (read-only here)</source>
        <translation>来自 SillyTavern 世界书“{0}”（此处只读）</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/memory_model.py" line="86"/>
        <source>Imported from the World Info file “{0}”</source>
        <translation>从世界书文件“{0}”导入</translation>
    </message>
</context>
<context>
    <name>Menus</name>
    <message>
        <location filename="../../bme_desktop/ui/menus.py" line="56"/>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/menus.py" line="57"/>
        <source>Show data folder</source>
        <translation>显示数据文件夹</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/menus.py" line="59"/>
        <source>Open another data folder…</source>
        <translation>打开其他数据文件夹…</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/menus.py" line="63"/>
        <source>Quit</source>
        <translation>退出</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/menus.py" line="67"/>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/menus.py" line="79"/>
        <source>Undo</source>
        <translation>撤销</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/menus.py" line="81"/>
        <source>Undo {0}</source>
        <translation>撤销{0}</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/menus.py" line="87"/>
        <source>Redo</source>
        <translation>重做</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/menus.py" line="89"/>
        <source>Redo {0}</source>
        <translation>重做{0}</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/menus.py" line="147"/>
        <source>Nothing to undo.</source>
        <translation>没有可撤销的操作。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/menus.py" line="148"/>
        <source>Undone.</source>
        <translation>已撤销。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/menus.py" line="151"/>
        <source>Nothing to redo.</source>
        <translation>没有可重做的操作。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/menus.py" line="152"/>
        <source>Redone.</source>
        <translation>已重做。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/menus.py" line="160"/>
        <source>A maintenance task is changing this chat: undo once it has finished.</source>
        <translation>维护任务正在修改这个聊天：请等它完成后再撤销。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/menus.py" line="166"/>
        <source>This step cannot be undone or redone: memories were extracted from new messages since, and putting the old ones back would mix the two.</source>
        <translation>这一步无法撤销或重做：此后已从新消息中提取了记忆，恢复旧记忆会把两者混在一起。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/menus.py" line="180"/>
        <source>New memory</source>
        <translation>新建记忆</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/menus.py" line="191"/>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/menus.py" line="192"/>
        <source>Theme</source>
        <translation>主题</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/menus.py" line="208"/>
        <source>Language</source>
        <translation>语言</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/menus.py" line="218"/>
        <source>Companion window</source>
        <translation>伴侣窗口</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/menus.py" line="223"/>
        <source>A small always-on-top window with the last recall, to keep beside SillyTavern</source>
        <translation>一个置顶的小窗口，显示最近一次召回，可放在 SillyTavern 旁边</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/menus.py" line="229"/>
        <source>Panels</source>
        <translation>面板</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/menus.py" line="232"/>
        <source>Central view</source>
        <translation>中央视图</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/menus.py" line="238"/>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/menus.py" line="239"/>
        <location filename="../../bme_desktop/ui/menus.py" line="243"/>
        <source>About BME Desktop</source>
        <translation>关于 BME Desktop</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/menus.py" line="244"/>
        <source>&lt;b&gt;BME Desktop {0}&lt;/b&gt;&lt;p&gt;Watch, audit and edit what the AI remembers of your chats.&lt;/p&gt;&lt;p&gt;Data folder: {1}&lt;/p&gt;</source>
        <translation>&lt;b&gt;BME Desktop {0}&lt;/b&gt;&lt;p&gt;查看、审核和编辑 AI 对你的聊天所记住的内容。&lt;/p&gt;&lt;p&gt;数据文件夹：{1}&lt;/p&gt;</translation>
    </message>
</context>
<context>
    <name>MessageDialog</name>
    <message>
        <location filename="../../bme_desktop/ui/memory_detail_dialogs.py" line="36"/>
        <source>Message #{0}</source>
        <translation>消息 #{0}</translation>
    </message>
</context>
<context>
    <name>Navigation</name>
    <message>
        <location filename="../../bme_desktop/ui/navigation.py" line="34"/>
        <location filename="../../bme_desktop/ui/navigation.py" line="43"/>
        <source>Navigation</source>
        <translation>导航</translation>
    </message>
</context>
<context>
    <name>NebulaView</name>
    <message>
        <location filename="../../bme_desktop/ui/views/nebula/view.py" line="106"/>
        <location filename="../../bme_desktop/ui/views/nebula/view.py" line="158"/>
        <source>The memory nebula</source>
        <translation>记忆星云</translation>
    </message>
</context>
<context>
    <name>NodeEditor</name>
    <message>
        <location filename="../../bme_desktop/ui/panels/node_editor.py" line="321"/>
        <source>No memory selected</source>
        <translation>未选择记忆</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/node_editor.py" line="134"/>
        <source>Pinned (always kept)</source>
        <translation>置顶（始终保留）</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/node_editor.py" line="137"/>
        <source>Who else remembers it: this chat only, every chat with the character, every chat of your persona, every chat in the world (saving a change is one undo step)</source>
        <translation>还有谁记得它：仅本聊天、与该角色的所有聊天、你这个用户身份的所有聊天、同一世界的所有聊天（保存更改为一步撤销）</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/node_editor.py" line="142"/>
        <source>message numbers, e.g. 3, 4, 9</source>
        <translation>消息序号，例如 3, 4, 9</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/node_editor.py" line="143"/>
        <source>Save</source>
        <translation>保存</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/node_editor.py" line="144"/>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/node_editor.py" line="146"/>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/node_editor.py" line="147"/>
        <source>Importance</source>
        <translation>重要度</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/node_editor.py" line="148"/>
        <source>Tier</source>
        <translation>层级</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/node_editor.py" line="149"/>
        <source>Review</source>
        <translation>审核</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/node_editor.py" line="150"/>
        <source>Scope</source>
        <translation>范围</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/node_editor.py" line="151"/>
        <source>Source messages</source>
        <translation>来源消息</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/node_editor.py" line="321"/>
        <source>New memory</source>
        <translation>新建记忆</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/node_editor.py" line="323"/>
        <source>Fill in the fields and save.</source>
        <translation>填写字段后保存。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/node_editor.py" line="208"/>
        <source>Source messages must be whole numbers.</source>
        <translation>来源消息必须是整数。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/node_editor.py" line="325"/>
        <source>Pick a memory in the list to see and edit it.</source>
        <translation>在列表中选择一条记忆以查看和编辑。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/node_editor.py" line="331"/>
        <source>Created {0} · updated {1} · recalled {2}×</source>
        <translation>创建于 {0} · 更新于 {1} · 召回 {2} 次</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/node_editor.py" line="341"/>
        <source>From the SillyTavern lorebook “{0}” (entry {1}): change it in SillyTavern&apos;s World Info editor and it follows here.</source>
        <translation>来自 SillyTavern 世界书“{0}”（条目 {1}）：请在 SillyTavern 的世界书编辑器中修改，这里会随之更新。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/node_editor.py" line="345"/>
        <source>Imported from the World Info file “{0}” (entry {1}).</source>
        <translation>从世界书文件“{0}”导入（条目 {1}）。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/node_editor.py" line="354"/>
        <source>Saved “{0}”.</source>
        <translation>已保存“{0}”。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/node_editor.py" line="359"/>
        <source>Created “{0}”.</source>
        <translation>已创建“{0}”。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/node_editor.py" line="363"/>
        <source>Moved to the recycle bin (Ctrl+Z undoes it).</source>
        <translation>已移入回收站（Ctrl+Z 可撤销）。</translation>
    </message>
</context>
<context>
    <name>OverviewPanel</name>
    <message>
        <location filename="../../bme_desktop/ui/panels/overview.py" line="238"/>
        <source>SillyTavern&apos;s model</source>
        <translation>SillyTavern 的模型</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/overview.py" line="239"/>
        <source>the proxy&apos;s upstream</source>
        <translation>代理的上游</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/overview.py" line="250"/>
        <source>Last extraction: none yet</source>
        <translation>上次提取：尚无</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/overview.py" line="252"/>
        <source>Last extraction: {0}</source>
        <translation>上次提取：{0}</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/overview.py" line="254"/>
        <source>Last extraction: rules — the model failed, the batch says why</source>
        <translation>上次提取：规则——模型失败了，批次中写明了原因</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/overview.py" line="255"/>
        <source>Last extraction: rules (offline)</source>
        <translation>上次提取：规则（离线）</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/overview.py" line="133"/>
        <source>Memories</source>
        <translation>记忆</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/overview.py" line="134"/>
        <source>Links</source>
        <translation>关联</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/overview.py" line="135"/>
        <source>Pending reviews</source>
        <translation>待审核</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/overview.py" line="136"/>
        <source>Messages</source>
        <translation>消息</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/overview.py" line="182"/>
        <source>No chat open</source>
        <translation>未打开聊天</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/overview.py" line="183"/>
        <source>Chats appear here once SillyTavern syncs them.</source>
        <translation>SillyTavern 同步聊天后会显示在这里。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/overview.py" line="189"/>
        <source>Last activity {0}</source>
        <translation>最近活动 {0}</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/overview.py" line="213"/>
        <source>No memories yet</source>
        <translation>还没有记忆</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/overview.py" line="262"/>
        <source>Recall by meaning: off (no embedder)</source>
        <translation>语义召回：关闭（没有嵌入模型）</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/overview.py" line="264"/>
        <source>Recall by meaning: the vectors load with the chat&apos;s first recall</source>
        <translation>语义召回：向量将在本聊天第一次召回时载入</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/overview.py" line="267"/>
        <source>{0} on {1}</source>
        <translation>{0}（{1} 运行）</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/overview.py" line="271"/>
        <source>Recall by meaning: {0} of {1} memories embedded, more on the way · {2}</source>
        <translation>语义召回：{1} 条记忆中已嵌入 {0} 条，其余正在处理 · {2}</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/overview.py" line="274"/>
        <source>Recall by meaning: {0} memories embedded · {1}</source>
        <translation>语义召回：已嵌入 {0} 条记忆 · {1}</translation>
    </message>
</context>
<context>
    <name>OverviewPlots</name>
    <message>
        <location filename="../../bme_desktop/ui/panels/overview_plots.py" line="100"/>
        <source>Memories by type</source>
        <translation>各类型记忆数</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/overview_plots.py" line="100"/>
        <source>Live memories of each type</source>
        <translation>每种类型的现存记忆数</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/overview_plots.py" line="101"/>
        <source>Memories over time</source>
        <translation>记忆随时间增长</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/overview_plots.py" line="101"/>
        <source>Live memories, counted by when each was made</source>
        <translation>按创建时间累计的现存记忆数</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/overview_plots.py" line="102"/>
        <source>Recall time</source>
        <translation>召回耗时</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/overview_plots.py" line="102"/>
        <source>How long each kept recall took, oldest first</source>
        <translation>每次保留的召回所用时间，从最早开始</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/overview_plots.py" line="103"/>
        <source>Retrievability</source>
        <translation>可提取度</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/overview_plots.py" line="103"/>
        <source>How easily each live memory comes back (1 = at once)</source>
        <translation>每条现存记忆被想起的难易程度（1 = 立即想起）</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/overview_plots.py" line="168"/>
        <location filename="../../bme_desktop/ui/panels/overview_plots.py" line="170"/>
        <source>memories</source>
        <translation>记忆数</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/overview_plots.py" line="169"/>
        <source>ms</source>
        <translation>毫秒</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/overview_plots.py" line="169"/>
        <source>recall</source>
        <translation>召回次序</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/overview_plots.py" line="170"/>
        <source>retrievability</source>
        <translation>可提取度</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/overview_plots.py" line="188"/>
        <location filename="../../bme_desktop/ui/panels/overview_plots.py" line="241"/>
        <source>No memories yet</source>
        <translation>还没有记忆</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/overview_plots.py" line="205"/>
        <source>No recalls kept yet</source>
        <translation>还没有保留的召回记录</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/overview_plots.py" line="227"/>
        <source>mean {0} ms</source>
        <translation>平均 {0} 毫秒</translation>
    </message>
</context>
<context>
    <name>Panels</name>
    <message>
        <location filename="../../bme_desktop/ui/panels/__init__.py" line="76"/>
        <source>Overview</source>
        <translation>概览</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/__init__.py" line="77"/>
        <source>Memories</source>
        <translation>记忆</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/__init__.py" line="78"/>
        <source>Review</source>
        <translation>审核</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/__init__.py" line="79"/>
        <source>Patrol</source>
        <translation>巡查</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/__init__.py" line="82"/>
        <source>Injection</source>
        <translation>注入</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/__init__.py" line="88"/>
        <source>Actions</source>
        <translation>操作</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/__init__.py" line="92"/>
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/__init__.py" line="98"/>
        <source>Persona</source>
        <translation>用户画像</translation>
    </message>
</context>
<context>
    <name>PatrolPanel</name>
    <message>
        <location filename="../../bme_desktop/ui/panels/patrol.py" line="85"/>
        <source>Patrol</source>
        <translation>巡查</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/patrol.py" line="86"/>
        <source>Run patrol now</source>
        <translation>立即巡查</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/patrol.py" line="87"/>
        <source>What do I know about…?</source>
        <translation>我对……知道些什么？</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/patrol.py" line="88"/>
        <source>Ask</source>
        <translation>询问</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/patrol.py" line="89"/>
        <source>The memories about it, and how sure they are, appear here.</source>
        <translation>与之相关的记忆及其可信程度会显示在这里。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/patrol.py" line="97"/>
        <source>Long unused</source>
        <translation>长期未用</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/patrol.py" line="98"/>
        <source>Suspected duplicates</source>
        <translation>疑似重复</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/patrol.py" line="99"/>
        <source>Contradiction candidates</source>
        <translation>可能矛盾</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/patrol.py" line="100"/>
        <source>About to be forgotten</source>
        <translation>即将遗忘</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/patrol.py" line="101"/>
        <source>Unclassified</source>
        <translation>未分类</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/patrol.py" line="102"/>
        <source>Stale to-dos</source>
        <translation>久置的待办</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/patrol.py" line="103"/>
        <source>Will be retired at the next upkeep</source>
        <translation>下次维护时将被淘汰</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/patrol.py" line="125"/>
        <source>Patrolling…</source>
        <translation>正在巡查…</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/patrol.py" line="137"/>
        <source>The patrol failed: {0}</source>
        <translation>巡查失败：{0}</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/patrol.py" line="143"/>
        <source>No patrol yet; it runs once a day.</source>
        <translation>尚未巡查；每天自动运行一次。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/patrol.py" line="147"/>
        <source>Last patrol {0} · lists only, changes nothing</source>
        <translation>上次巡查 {0} · 只列出，不做任何更改</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/patrol.py" line="155"/>
        <source>{0} ({1})</source>
        <translation>{0}（{1}）</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/patrol.py" line="160"/>
        <source>{0} more not listed</source>
        <translation>另有 {0} 条未列出</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/patrol.py" line="177"/>
        <source>Refused: the maximum age of {0} ({1} days) would retire all {2} of them; nothing is retired. Raise the limit or remove the rule in Settings → Life cycle.</source>
        <translation>已拒绝：{0}的最长保留期（{1} 天）会淘汰全部 {2} 条；未淘汰任何记忆。请在 设置 → 生命周期 中放宽限制或删除该规则。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/patrol.py" line="189"/>
        <source>Refused: the rules would retire all {0} memories of this chat; nothing is retired.</source>
        <translation>已拒绝：这些规则会淘汰本对话全部 {0} 条记忆；未淘汰任何记忆。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/patrol.py" line="195"/>
        <source>{0} memories in the recycle bin will be deleted for good</source>
        <translation>回收站中的 {0} 条记忆将被永久删除</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/patrol.py" line="237"/>
        <source>Nothing is known about “{0}”.</source>
        <translation>对“{0}”一无所知。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/patrol.py" line="240"/>
        <source>{0} memories about “{1}” · strongest {2}% · confirmed {3} times</source>
        <translation>关于“{1}”的记忆 {0} 条 · 最强 {2}% · 被确认 {3} 次</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/patrol.py" line="249"/>
        <source>• {0} — strength {1}%, confirmed {2} times, {3} days old, {4} links</source>
        <translation>• {0} — 强度 {1}%，被确认 {2} 次，已有 {3} 天，{4} 个关联</translation>
    </message>
</context>
<context>
    <name>Persona</name>
    <message>
        <location filename="../../bme_desktop/ui/panels/persona.py" line="33"/>
        <source>Traits</source>
        <translation>特征</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/persona.py" line="34"/>
        <source>Preferences</source>
        <translation>偏好</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/persona.py" line="35"/>
        <source>Goals</source>
        <translation>目标</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/persona.py" line="36"/>
        <source>Decision style</source>
        <translation>决策风格</translation>
    </message>
</context>
<context>
    <name>PersonaPanel</name>
    <message>
        <location filename="../../bme_desktop/ui/panels/persona.py" line="87"/>
        <source>Persona</source>
        <translation>用户画像</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/persona.py" line="88"/>
        <source>Current profile</source>
        <translation>当前画像</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/persona.py" line="89"/>
        <source>Snapshots</source>
        <translation>快照</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/persona.py" line="91"/>
        <location filename="../../bme_desktop/ui/panels/persona.py" line="111"/>
        <source>No chat open</source>
        <translation>未打开聊天</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/persona.py" line="129"/>
        <source>No persona yet: run “Update persona” in Actions once the story has facts about the user.</source>
        <translation>尚无用户画像：当故事中有关于用户的事实后，在“操作”中运行“更新用户画像”。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/persona.py" line="136"/>
        <location filename="../../bme_desktop/ui/panels/persona.py" line="143"/>
        <source>Version {0} · {1}</source>
        <translation>第 {0} 版 · {1}</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/persona.py" line="144"/>
        <source>{0} traits</source>
        <translation>{0} 项特征</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/persona.py" line="159"/>
        <source>Reject</source>
        <translation>驳回</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/persona.py" line="161"/>
        <source>Not true of the user: leave it out of every later profile</source>
        <translation>不符合用户：以后的画像都不再包含它</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/persona.py" line="173"/>
        <source>Evidence: click to select this memory</source>
        <translation>证据：点击选中这条记忆</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/persona.py" line="190"/>
        <source>Rejected “{0}”.</source>
        <translation>已驳回“{0}”。</translation>
    </message>
</context>
<context>
    <name>RetentionBox</name>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_retention.py" line="58"/>
        <source>Memory type</source>
        <translation>记忆类型</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_retention.py" line="59"/>
        <source>Maximum age (never recalled)</source>
        <translation>最长保留期（从未被召回）</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_retention.py" line="60"/>
        <source>Maximum count per chat</source>
        <translation>每个对话最多条数</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_retention.py" line="67"/>
        <source> days</source>
        <translation> 天</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_retention.py" line="74"/>
        <source>What a rule retires goes to the recycle bin at the next upkeep; the Patrol report says beforehand how many. Core memories (characters, rules, summaries, lasting traits), pinned memories and those written or edited by hand are never retired.</source>
        <translation>规则淘汰的记忆会在下次维护时移入回收站；巡检报告会事先列出数量。核心记忆（角色、规则、摘要、持久特质）、已置顶的记忆以及手写或手动编辑过的记忆永不淘汰。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_retention.py" line="69"/>
        <source>no limit</source>
        <translation>无期限</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_retention.py" line="71"/>
        <source>Core memories are never retired.</source>
        <translation>核心记忆永不淘汰。</translation>
    </message>
</context>
<context>
    <name>Review</name>
    <message>
        <location filename="../../bme_desktop/ui/panels/review.py" line="62"/>
        <source>Its source messages were edited, but you had changed it by hand, so it was kept for you to check.</source>
        <translation>它的来源消息被修改了，但你曾手动改过它，所以保留下来请你检查。</translation>
    </message>
    <message numerus="yes">
        <location filename="../../bme_desktop/ui/panels/review.py" line="55"/>
        <source>Promoted to long-term memory after being recalled %n time(s).</source>
        <translation>
            <numerusform>被召回 %n 次后晋升为长期记忆。</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/review.py" line="71"/>
        <source>Written by Compress from {0} memories, not all of them approved.</source>
        <translation>由“压缩”从 {0} 条记忆写成，其中有未批准的。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/review.py" line="75"/>
        <source>Sent back to review by hand.</source>
        <translation>被手动送回审核。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/review.py" line="77"/>
        <source>A new long-term memory made by extraction (the review mode lists those).</source>
        <translation>提取生成的新长期记忆（当前审核模式会列出这类记忆）。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/review.py" line="81"/>
        <source>A new memory made by extraction (the review mode lists every one).</source>
        <translation>提取生成的新记忆（当前审核模式会列出每一条）。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/review.py" line="85"/>
        <source>Written or edited by hand and saved as pending.</source>
        <translation>手动编写或编辑，并以“待审核”保存。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/review.py" line="86"/>
        <source>Marked for review (imported, or made by an older version).</source>
        <translation>标记为待审核（导入的，或由旧版本生成）。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/review.py" line="96"/>
        <source>{0} · {1} · {2} · importance {3} · made {4}</source>
        <translation>{0} · {1} · {2} · 重要度 {3} · 生成于 {4}</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/review.py" line="113"/>
        <source>Why it is here</source>
        <translation>为何在此</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/review.py" line="118"/>
        <source>Sources</source>
        <translation>来源</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/review.py" line="121"/>
        <source>No source messages recorded.</source>
        <translation>没有记录来源消息。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/review.py" line="128"/>
        <source>#{0} {1}:</source>
        <translation>#{0} {1}：</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/review.py" line="138"/>
        <source>and {0} more messages</source>
        <translation>另有 {0} 条消息</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/review.py" line="148"/>
        <source>A approve · R reject · E edit · N/J next · P/K previous · U undo</source>
        <translation>A 批准 · R 拒绝 · E 编辑 · N/J 下一条 · P/K 上一条 · U 撤销</translation>
    </message>
</context>
<context>
    <name>ReviewPanel</name>
    <message>
        <location filename="../../bme_desktop/ui/panels/review.py" line="223"/>
        <source>Approve selected</source>
        <translation>通过所选</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/review.py" line="224"/>
        <source>A: approve the selected memories (one undoable step)</source>
        <translation>A：批准所选记忆（一步，可撤销）</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/review.py" line="225"/>
        <source>Reject selected</source>
        <translation>拒绝所选</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/review.py" line="226"/>
        <source>R: reject the selected memories (one undoable step)</source>
        <translation>R：拒绝所选记忆（一步，可撤销）</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/review.py" line="227"/>
        <source>Select all</source>
        <translation>全选</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/review.py" line="228"/>
        <source>Edit</source>
        <translation>编辑</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/review.py" line="229"/>
        <source>E: edit the selected memory; Esc returns to the card</source>
        <translation>E：编辑所选记忆；Esc 返回卡片</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/review.py" line="230"/>
        <source>Undo</source>
        <translation>撤销</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/review.py" line="231"/>
        <source>U: undo the last decision</source>
        <translation>U：撤销上一个决定</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/review.py" line="309"/>
        <source>Undone.</source>
        <translation>已撤销。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/review.py" line="309"/>
        <source>Nothing to undo.</source>
        <translation>没有可撤销的操作。</translation>
    </message>
    <message numerus="yes">
        <location filename="../../bme_desktop/ui/panels/review.py" line="333"/>
        <source>Approved %n memories (U undoes).</source>
        <translation>
            <numerusform>已批准 %n 条记忆（按 U 撤销）。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../bme_desktop/ui/panels/review.py" line="337"/>
        <source>Rejected %n memories (U undoes).</source>
        <translation>
            <numerusform>已拒绝 %n 条记忆（按 U 撤销）。</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/review.py" line="395"/>
        <source>{0} memories selected: A approves them all, R rejects them all, as one step U undoes.</source>
        <translation>已选 {0} 条记忆：A 全部批准，R 全部拒绝，作为一步，U 可撤销。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/review.py" line="402"/>
        <source>Select a memory to see what it says.</source>
        <translation>选择一条记忆，查看它的内容。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/review.py" line="404"/>
        <source>Nothing waits for review.</source>
        <translation>没有待审核的记忆。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/review.py" line="409"/>
        <source>{0} waiting · {1} selected</source>
        <translation>{0} 条待审 · 已选 {1} 条</translation>
    </message>
</context>
<context>
    <name>SettingsLabels</name>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_labels.py" line="25"/>
        <source>Use this endpoint (wins over borrowed models)</source>
        <translation>使用此端点（优先于借用的模型）</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_labels.py" line="33"/>
        <source>Borrow SillyTavern&apos;s model when its extension offers it</source>
        <translation>SillyTavern 扩展提供时借用它的模型</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_labels.py" line="36"/>
        <source>Borrow the proxy&apos;s upstream model (spends the proxy key)</source>
        <translation>借用代理上游的模型（消耗代理密钥的额度）</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_labels.py" line="39"/>
        <source>Borrowed model: timeout per job</source>
        <translation>借用模型：每个任务的超时</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_labels.py" line="40"/>
        <source>Borrowed model: reply tokens per job</source>
        <translation>借用模型：每个任务的回复词元数</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_labels.py" line="43"/>
        <source>Borrowed model: jobs per minute</source>
        <translation>借用模型：每分钟任务数</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_labels.py" line="10"/>
        <source>Language model</source>
        <translation>语言模型</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_labels.py" line="11"/>
        <source>Embeddings</source>
        <translation>嵌入</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_labels.py" line="12"/>
        <source>Extraction</source>
        <translation>提取</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_labels.py" line="13"/>
        <source>Recall</source>
        <translation>召回</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_labels.py" line="14"/>
        <source>Life cycle</source>
        <translation>生命周期</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_labels.py" line="15"/>
        <source>Bridge</source>
        <translation>桥接</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_labels.py" line="16"/>
        <source>Proxy</source>
        <translation>代理</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_labels.py" line="17"/>
        <source>Backup</source>
        <translation>备份</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_labels.py" line="18"/>
        <source>Appearance</source>
        <translation>外观</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_labels.py" line="28"/>
        <location filename="../../bme_desktop/ui/panels/settings_labels.py" line="48"/>
        <source>Endpoint URL</source>
        <translation>端点地址</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_labels.py" line="29"/>
        <location filename="../../bme_desktop/ui/panels/settings_labels.py" line="49"/>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_labels.py" line="30"/>
        <location filename="../../bme_desktop/ui/panels/settings_labels.py" line="51"/>
        <location filename="../../bme_desktop/ui/panels/settings_labels.py" line="67"/>
        <source>Timeout</source>
        <translation>超时</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_labels.py" line="31"/>
        <source>Temperature</source>
        <translation>温度</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_labels.py" line="32"/>
        <source>Retries</source>
        <translation>重试次数</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_labels.py" line="46"/>
        <source>Provider</source>
        <translation>提供方</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_labels.py" line="47"/>
        <source>Local model</source>
        <translation>本地模型</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_labels.py" line="50"/>
        <source>Batch size</source>
        <translation>批大小</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_labels.py" line="52"/>
        <source>Extract every N replies</source>
        <translation>每 N 条回复提取一次</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_labels.py" line="53"/>
        <source>Context messages</source>
        <translation>上下文消息数</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_labels.py" line="54"/>
        <source>Cleaning patterns (one per line)</source>
        <translation>清理规则（每行一条）</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_labels.py" line="57"/>
        <source>Memories per recall</source>
        <translation>每次召回的记忆数</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_labels.py" line="58"/>
        <source>Token budget</source>
        <translation>令牌预算</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_labels.py" line="59"/>
        <source>Weight of the current input</source>
        <translation>当前输入的权重</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_labels.py" line="60"/>
        <source>Weight of the last reply</source>
        <translation>上一条回复的权重</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_labels.py" line="61"/>
        <source>Weight of the previous input</source>
        <translation>上一条输入的权重</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_labels.py" line="64"/>
        <source>Rerank with the language model</source>
        <translation>用语言模型重排</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_labels.py" line="68"/>
        <source>Weight of memories in the current region</source>
        <translation>当前区域记忆的权重</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_labels.py" line="71"/>
        <source>Weight of memories in an adjacent region</source>
        <translation>相邻区域记忆的权重</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_labels.py" line="74"/>
        <source>Weight of memories in other regions</source>
        <translation>其他区域记忆的权重</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_labels.py" line="77"/>
        <source>Weight of the character&apos;s shared memories</source>
        <translation>角色共享记忆的权重</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_labels.py" line="80"/>
        <source>Weight of your persona&apos;s shared memories</source>
        <translation>你的用户身份共享记忆的权重</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_labels.py" line="83"/>
        <source>Weight of world memories</source>
        <translation>世界记忆的权重</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_labels.py" line="84"/>
        <source>Short-term memory lasts</source>
        <translation>短期记忆保留时长</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_labels.py" line="85"/>
        <source>Dormant below retrievability</source>
        <translation>可提取度低于此值即休眠</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_labels.py" line="88"/>
        <source>Send to review</source>
        <translation>送审范围</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_labels.py" line="89"/>
        <source>Recall only approved memories (strict review)</source>
        <translation>只注入已批准的记忆（严格审核）</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_labels.py" line="92"/>
        <source>Consolidation similarity</source>
        <translation>合并相似度阈值</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_labels.py" line="95"/>
        <source>Promote at importance</source>
        <translation>晋升所需重要度</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_labels.py" line="96"/>
        <source>Half-life, slow pool</source>
        <translation>半衰期（慢速池）</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_labels.py" line="97"/>
        <source>Half-life, medium pool</source>
        <translation>半衰期（中速池）</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_labels.py" line="100"/>
        <source>Half-life, fast pool</source>
        <translation>半衰期（快速池）</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_labels.py" line="101"/>
        <source>Stability soft cap</source>
        <translation>稳定度软上限</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_labels.py" line="104"/>
        <source>Repeat window</source>
        <translation>重复窗口</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_labels.py" line="105"/>
        <source>Echo window</source>
        <translation>回声窗口</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_labels.py" line="106"/>
        <source>Echo discount</source>
        <translation>回声折扣</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_labels.py" line="107"/>
        <source>Retrievability step</source>
        <translation>可提取度步长</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_labels.py" line="108"/>
        <source>Upkeep every (0: never)</source>
        <translation>维护间隔（0：从不）</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_labels.py" line="111"/>
        <source>Summary every N events</source>
        <translation>每 N 个事件写一次摘要</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_labels.py" line="112"/>
        <source>Fold above N summaries</source>
        <translation>摘要超过 N 条时折叠</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_labels.py" line="113"/>
        <source>Reflect every N events</source>
        <translation>每 N 个事件反思一次</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_labels.py" line="114"/>
        <source>Reflect automatically</source>
        <translation>自动反思</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_labels.py" line="115"/>
        <source>Compress automatically</source>
        <translation>自动压缩</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_labels.py" line="116"/>
        <source>Events a reflection looks at</source>
        <translation>反思参考的事件数</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_labels.py" line="119"/>
        <source>Update the persona automatically</source>
        <translation>自动更新用户画像</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_labels.py" line="122"/>
        <source>Persona update at most every</source>
        <translation>用户画像最短更新间隔</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_labels.py" line="125"/>
        <source>Working memory size</source>
        <translation>工作记忆容量</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_labels.py" line="126"/>
        <source>Working memory expires after</source>
        <translation>工作记忆过期时间</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_labels.py" line="129"/>
        <source>Patrol: unused for</source>
        <translation>巡查：未使用时长</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_labels.py" line="130"/>
        <source>Patrol: forgetting margin</source>
        <translation>巡查：遗忘余量</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_labels.py" line="133"/>
        <source>Capacity: memories kept per chat (0: no cap)</source>
        <translation>容量上限：每个对话保留的记忆数（0：不限）</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_labels.py" line="136"/>
        <source>Recycle bin deletes for good after (0: never)</source>
        <translation>回收站永久删除期限（0：永不）</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_labels.py" line="139"/>
        <source>Host</source>
        <translation>主机</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_labels.py" line="140"/>
        <source>Port</source>
        <translation>端口</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_labels.py" line="141"/>
        <source>Allowed origins (one per line)</source>
        <translation>允许的来源（每行一个）</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_labels.py" line="144"/>
        <source>Request size limit</source>
        <translation>请求大小上限</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_labels.py" line="145"/>
        <source>Requests per second</source>
        <translation>每秒请求数</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_labels.py" line="146"/>
        <source>Request burst</source>
        <translation>请求突发量</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_labels.py" line="147"/>
        <source>Memory proxy on /v1</source>
        <translation>在 /v1 上提供记忆代理</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_labels.py" line="149"/>
        <source>Model map (alias=model, one per line)</source>
        <translation>模型映射（别名=上游模型，每行一条）</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_labels.py" line="152"/>
        <source>Memory depth (messages back)</source>
        <translation>记忆插入深度（往前数的消息数）</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_labels.py" line="148"/>
        <source>Upstream URL</source>
        <translation>上游地址</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_labels.py" line="153"/>
        <source>Memory goes into</source>
        <translation>记忆放入</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_labels.py" line="154"/>
        <source>Upstream timeout</source>
        <translation>上游超时</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_labels.py" line="155"/>
        <source>Back up on a schedule</source>
        <translation>定时备份</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_labels.py" line="156"/>
        <source>Back up every</source>
        <translation>备份间隔</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_labels.py" line="157"/>
        <source>Scheduled backups kept</source>
        <translation>保留的定时备份数</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_labels.py" line="158"/>
        <source>Encrypt (skipped when no passphrase is set)</source>
        <translation>加密（未设置口令时跳过备份）</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_labels.py" line="161"/>
        <source>Passphrase environment variable (else the keyring)</source>
        <translation>口令所在的环境变量（否则取系统密钥环）</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_labels.py" line="164"/>
        <source>Folder inside the data folder</source>
        <translation>数据文件夹内的备份文件夹</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_labels.py" line="165"/>
        <source>Theme</source>
        <translation>主题</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_labels.py" line="166"/>
        <source>Language</source>
        <translation>语言</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_labels.py" line="173"/>
        <source>On this computer</source>
        <translation>在本机运行</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_labels.py" line="174"/>
        <source>Remote endpoint</source>
        <translation>远程端点</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_labels.py" line="175"/>
        <source>Every new memory</source>
        <translation>所有新记忆</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_labels.py" line="176"/>
        <source>Long-term memories</source>
        <translation>长期记忆</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_labels.py" line="177"/>
        <source>Nothing</source>
        <translation>不送审</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_labels.py" line="178"/>
        <source>Automatic</source>
        <translation>自动</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_labels.py" line="179"/>
        <source>Its own system message</source>
        <translation>单独的系统消息</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_labels.py" line="180"/>
        <source>The first system message</source>
        <translation>第一条系统消息</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_labels.py" line="181"/>
        <source>The last user message</source>
        <translation>最后一条用户消息</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_labels.py" line="195"/>
        <source> s</source>
        <translation> 秒</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_labels.py" line="196"/>
        <source> h</source>
        <translation> 小时</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_labels.py" line="197"/>
        <source> days</source>
        <translation> 天</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_labels.py" line="198"/>
        <source> min</source>
        <translation> 分钟</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_labels.py" line="194"/>
        <source> /s</source>
        <translation> 次/秒</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_labels.py" line="199"/>
        <source> MB</source>
        <translation> MB</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_labels.py" line="200"/>
        <source> tokens</source>
        <translation> 令牌</translation>
    </message>
</context>
<context>
    <name>SettingsPanel</name>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings.py" line="103"/>
        <source>Save</source>
        <translation>保存</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings.py" line="104"/>
        <source>Revert</source>
        <translation>还原</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings.py" line="105"/>
        <source>Show the saved settings again</source>
        <translation>重新显示已保存的设置</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings.py" line="114"/>
        <source>API key</source>
        <translation>接口密钥</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings.py" line="106"/>
        <source>Token</source>
        <translation>令牌</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings.py" line="106"/>
        <source>Retention</source>
        <translation>保留策略</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings.py" line="116"/>
        <source>Reset this section</source>
        <translation>重置本节</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings.py" line="117"/>
        <source>Put the defaults back in the form (saved only with Save)</source>
        <translation>将默认值填回表单（点“保存”后才生效）</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings_endpoint.py" line="76"/>
        <source>Upstream API key (kept in the system keyring)</source>
        <translation>上游接口密钥（保存在系统钥匙串中）</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings.py" line="118"/>
        <source>Host and port changes apply at the next start.</source>
        <translation>主机和端口的更改在下次启动时生效。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings.py" line="258"/>
        <source>Saved.</source>
        <translation>已保存。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings.py" line="275"/>
        <source>Saved. In this chat the retention rules are refused: they would retire every memory of a type (see Patrol); nothing will be retired.</source>
        <translation>已保存。在本对话中保留规则被拒绝：它们会淘汰某一类型的全部记忆（见巡检）；不会淘汰任何记忆。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings.py" line="282"/>
        <source>Saved. The next upkeep retires {0} memories of this chat to the recycle bin (listed in Patrol).</source>
        <translation>已保存。下次维护会将本对话的 {0} 条记忆移入回收站（巡检中列出）。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings.py" line="297"/>
        <source>Not saved: a retention rule needs a different value.</source>
        <translation>未保存：某条保留规则的值需要修改。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings.py" line="300"/>
        <source>Not saved: {0}</source>
        <translation>未保存：{0}</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings.py" line="304"/>
        <source>Must be between {0} and {1}.</source>
        <translation>必须介于 {0} 和 {1} 之间。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings.py" line="310"/>
        <source>Not saved: “{0}” needs a different value.</source>
        <translation>未保存：“{0}”的值需要修改。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/settings.py" line="324"/>
        <source>Settings saved, but the API key was not: {0}</source>
        <translation>设置已保存，但接口密钥未保存：{0}</translation>
    </message>
</context>
<context>
    <name>Tray</name>
    <message>
        <location filename="../../bme_desktop/ui/tray.py" line="22"/>
        <source>1 memory waiting for review</source>
        <translation>1 条记忆等待审核</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/tray.py" line="24"/>
        <source>{0} memories waiting for review</source>
        <translation>{0} 条记忆等待审核</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/tray.py" line="37"/>
        <location filename="../../bme_desktop/ui/tray.py" line="51"/>
        <source>Bridge: off</source>
        <translation>桥接：关闭</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/tray.py" line="98"/>
        <source>Show window</source>
        <translation>显示窗口</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/tray.py" line="99"/>
        <source>Companion window</source>
        <translation>伴侣窗口</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/tray.py" line="100"/>
        <source>Quit</source>
        <translation>退出</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/tray.py" line="106"/>
        <source>Pending reviews ({0})</source>
        <translation>待审核（{0}）</translation>
    </message>
</context>
<context>
    <name>Views</name>
    <message>
        <location filename="../../bme_desktop/ui/views/__init__.py" line="50"/>
        <source>Memory timeline</source>
        <translation>记忆时间线</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/views/__init__.py" line="51"/>
        <source>Memory graph</source>
        <translation>记忆图谱</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/views/__init__.py" line="52"/>
        <source>Memory nebula</source>
        <translation>记忆星云</translation>
    </message>
</context>
<context>
    <name>WelcomePage</name>
    <message>
        <location filename="../../bme_desktop/ui/welcome.py" line="71"/>
        <source>Welcome to BME Desktop</source>
        <translation>欢迎使用 BME Desktop</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/welcome.py" line="74"/>
        <source>BME Desktop remembers your long chats: what happened, who is who, the rules of the world. This data folder has no chat yet.</source>
        <translation>BME Desktop 记住你的长篇对话：发生了什么、谁是谁、世界的规则。这个数据文件夹里还没有对话。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/welcome.py" line="80"/>
        <source>Open the demo</source>
        <translation>打开演示</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/welcome.py" line="81"/>
        <source>A generated story of a few hundred memories to look around in.</source>
        <translation>一个生成的故事，有几百条记忆，可以随意浏览。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/welcome.py" line="85"/>
        <source>Connect SillyTavern</source>
        <translation>连接 SillyTavern</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/welcome.py" line="86"/>
        <source>Install the extension and pair it with this app; chats appear here as you play.</source>
        <translation>安装扩展并与本程序配对；你开始对话后，对话会出现在这里。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/welcome.py" line="90"/>
        <source>Open a data folder</source>
        <translation>打开数据文件夹</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/welcome.py" line="91"/>
        <source>Memories kept somewhere else (another profile, a backup you restored).</source>
        <translation>保存在别处的记忆（另一个配置，或你恢复的备份）。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/welcome.py" line="124"/>
        <source>Writing the demo story…</source>
        <translation>正在写入演示故事…</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/welcome.py" line="134"/>
        <source>The demo could not be written: {0}</source>
        <translation>无法写入演示：{0}</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/welcome.py" line="96"/>
        <source>1. Install the extension into your SillyTavern folder (the bridge address and this token are filled in). 2. Reload SillyTavern and open a chat: it appears here.</source>
        <translation>1. 把扩展安装到你的 SillyTavern 文件夹（桥接地址和这个令牌会自动填好）。2. 重新加载 SillyTavern 并打开一个对话：它会出现在这里。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/welcome.py" line="103"/>
        <source>Install into {0} (SillyTavern {1})</source>
        <translation>安装到 {0}（SillyTavern {1}）</translation>
    </message>
</context>
<context>
    <name>_Counts</name>
    <message numerus="yes">
        <location filename="../../bme_desktop/ui/panels/actions.py" line="150"/>
        <source>{0} of {1} message(s) read</source>
        <translation>
            <numerusform>已读 {0} / {1} 条消息</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../bme_desktop/ui/panels/actions.py" line="152"/>
        <source>{0} of {1} memory(s) embedded</source>
        <translation>
            <numerusform>已嵌入 {0} / {1} 条记忆</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../bme_desktop/ui/panels/actions.py" line="154"/>
        <source>{0} of {1} linked pair(s) revised</source>
        <translation>
            <numerusform>已修订 {0} / {1} 对关联记忆</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions.py" line="156"/>
        <source>Step {0} of {1}</source>
        <translation>第 {0} / {1} 步</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/actions.py" line="157"/>
        <source>{0} of {1}</source>
        <translation>{0} / {1}</translation>
    </message>
</context>
</TS>
