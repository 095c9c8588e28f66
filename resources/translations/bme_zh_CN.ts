<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN" sourcelanguage="en">
<context>
    <name>Bridge</name>
    <message>
        <location filename="../../bme_desktop/ui/bridge_host.py" line="34"/>
        <source>Bridge: off ({0} is not a loopback address; use bme-desktop serve --allow-remote)</source>
        <translation>桥接：关闭（{0} 不是本机回环地址；请使用 bme-desktop serve --allow-remote）</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/bridge_host.py" line="39"/>
        <source>Bridge: served by another process at {0}</source>
        <translation>桥接：由另一个进程提供，地址 {0}</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/bridge_host.py" line="45"/>
        <source>Bridge: off ({0})</source>
        <translation>桥接：关闭（{0}）</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/bridge_host.py" line="47"/>
        <source>Bridge: {0}</source>
        <translation>桥接：{0}</translation>
    </message>
</context>
<context>
    <name>ChatSwitcher</name>
    <message>
        <location filename="../../bme_desktop/ui/chat_switcher.py" line="27"/>
        <source>Find a chat…</source>
        <translation>查找聊天…</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/chat_switcher.py" line="55"/>
        <source>{0} memories · {1}</source>
        <translation>{0} 条记忆 · {1}</translation>
    </message>
</context>
<context>
    <name>DesktopApp</name>
    <message>
        <location filename="../../bme_desktop/ui/app.py" line="65"/>
        <source>Open another data folder</source>
        <translation>打开其他数据文件夹</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/app.py" line="66"/>
        <source>Start BME Desktop with --data-dir &quot;{0}&quot; to open that folder.</source>
        <translation>请用 --data-dir &quot;{0}&quot; 启动 BME Desktop 以打开该文件夹。</translation>
    </message>
</context>
<context>
    <name>GraphViews</name>
    <message>
        <location filename="../../bme_desktop/ui/views/gl_probe.py" line="21"/>
        <source>the “{0}” display platform has no OpenGL</source>
        <translation>“{0}”显示平台不支持 OpenGL</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/views/gl_probe.py" line="24"/>
        <source>no OpenGL context could be created</source>
        <translation>无法创建 OpenGL 上下文</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/views/gl_probe.py" line="29"/>
        <source>the OpenGL context could not be made current</source>
        <translation>无法激活 OpenGL 上下文</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/views/gl_probe.py" line="33"/>
        <source>OpenGL failed: {0}</source>
        <translation>OpenGL 出错：{0}</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/views/gl_probe.py" line="42"/>
        <source>{0} needs OpenGL, which is not available here ({1}).</source>
        <translation>{0}需要 OpenGL，但此处不可用（{1}）。</translation>
    </message>
</context>
<context>
    <name>InjectionPanel</name>
    <message>
        <location filename="../../bme_desktop/ui/panels/injection.py" line="29"/>
        <source>Pick a recall to see what was injected.</source>
        <translation>选择一次召回，查看注入的内容。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/injection.py" line="61"/>
        <source>#{0}  {1}</source>
        <translation>#{0}  {1}</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/injection.py" line="72"/>
        <source>No recall kept for this chat yet.</source>
        <translation>此聊天还没有保存的召回记录。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/injection.py" line="76"/>
        <source>Message {0} · {1} memories · ~{2} tokens · {3} ms</source>
        <translation>消息 {0} · {1} 条记忆 · 约 {2} 个词元 · {3} 毫秒</translation>
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
        <location filename="../../bme_desktop/ui/labels.py" line="10"/>
        <source>Character</source>
        <translation>角色</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/labels.py" line="10"/>
        <source>Location</source>
        <translation>地点</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/labels.py" line="10"/>
        <source>Rule</source>
        <translation>规则</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/labels.py" line="11"/>
        <source>Plot thread</source>
        <translation>剧情线</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/labels.py" line="11"/>
        <source>Fact</source>
        <translation>事实</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/labels.py" line="11"/>
        <location filename="../../bme_desktop/ui/labels.py" line="30"/>
        <source>Summary</source>
        <translation>摘要</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/labels.py" line="12"/>
        <source>Reflection</source>
        <translation>反思</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/labels.py" line="12"/>
        <source>Point of view</source>
        <translation>视角记忆</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/labels.py" line="18"/>
        <source>Short-term</source>
        <translation>短期</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/labels.py" line="18"/>
        <source>Long-term</source>
        <translation>长期</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/labels.py" line="18"/>
        <source>Dormant</source>
        <translation>休眠</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/labels.py" line="19"/>
        <source>Archived</source>
        <translation>归档</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/labels.py" line="24"/>
        <source>Pending</source>
        <translation>待审</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/labels.py" line="24"/>
        <source>Approved</source>
        <translation>已通过</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/labels.py" line="24"/>
        <source>Rejected</source>
        <translation>已拒绝</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/labels.py" line="30"/>
        <source>Title</source>
        <translation>标题</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/labels.py" line="30"/>
        <source>Participants</source>
        <translation>参与者</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/labels.py" line="31"/>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/labels.py" line="31"/>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/labels.py" line="31"/>
        <source>Traits</source>
        <translation>特征</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/labels.py" line="31"/>
        <source>State</source>
        <translation>现状</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/labels.py" line="32"/>
        <source>Goal</source>
        <translation>目标</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/labels.py" line="32"/>
        <source>Inventory</source>
        <translation>物品</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/labels.py" line="32"/>
        <source>Core note</source>
        <translation>核心备注</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/labels.py" line="33"/>
        <source>Features</source>
        <translation>特点</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/labels.py" line="33"/>
        <source>Danger</source>
        <translation>危险</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/labels.py" line="33"/>
        <source>Constraint</source>
        <translation>约束</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/labels.py" line="34"/>
        <source>Scope</source>
        <translation>范围</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/labels.py" line="34"/>
        <source>Statement</source>
        <translation>陈述</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/labels.py" line="34"/>
        <source>Subject</source>
        <translation>主体</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/labels.py" line="35"/>
        <source>Category</source>
        <translation>类别</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/labels.py" line="35"/>
        <source>Insight</source>
        <translation>洞见</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/labels.py" line="35"/>
        <source>Trigger</source>
        <translation>触发</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/labels.py" line="36"/>
        <source>Suggestion</source>
        <translation>建议</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/labels.py" line="36"/>
        <source>Belief</source>
        <translation>信念</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/labels.py" line="36"/>
        <source>Emotion</source>
        <translation>情绪</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/labels.py" line="37"/>
        <source>Attitude</source>
        <translation>态度</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/labels.py" line="37"/>
        <source>Certainty</source>
        <translation>确信度</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/labels.py" line="37"/>
        <source>About</source>
        <translation>关于</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/labels.py" line="44"/>
        <source>related to</source>
        <translation>相关</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/labels.py" line="44"/>
        <source>involved in</source>
        <translation>参与</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/labels.py" line="44"/>
        <source>occurred at</source>
        <translation>发生于</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/labels.py" line="45"/>
        <source>advances</source>
        <translation>推进</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/labels.py" line="45"/>
        <source>updates</source>
        <translation>更新</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/labels.py" line="45"/>
        <source>contradicts</source>
        <translation>矛盾</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/labels.py" line="46"/>
        <source>evolves into</source>
        <translation>演变为</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/labels.py" line="46"/>
        <source>is a later state of</source>
        <translation>是其后续状态</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <location filename="../../bme_desktop/ui/main_window.py" line="28"/>
        <source>BME Desktop — {0}</source>
        <translation>BME Desktop — {0}</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/main_window.py" line="38"/>
        <source>Chats</source>
        <translation>聊天</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/main_window.py" line="78"/>
        <source>Data: {0}</source>
        <translation>数据：{0}</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/main_window.py" line="80"/>
        <source>Bridge: off</source>
        <translation>桥接：关闭</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/main_window.py" line="87"/>
        <source>Database: SQLite</source>
        <translation>数据库：SQLite</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/main_window.py" line="88"/>
        <source>Database: {0}</source>
        <translation>数据库：{0}</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/main_window.py" line="105"/>
        <source>The “{0}” panel is not in this version yet.</source>
        <translation>此版本还没有“{0}”面板。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/main_window.py" line="107"/>
        <source>There is no panel called “{0}”.</source>
        <translation>没有名为“{0}”的面板。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/main_window.py" line="118"/>
        <source>Error: {0}</source>
        <translation>错误：{0}</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/main_window.py" line="122"/>
        <source>Working…</source>
        <translation>处理中…</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/main_window.py" line="127"/>
        <source>{0} memories removed.</source>
        <translation>已移除 {0} 条记忆。</translation>
    </message>
</context>
<context>
    <name>MemoriesPanel</name>
    <message>
        <location filename="../../bme_desktop/ui/panels/memories.py" line="32"/>
        <source>Search memories…</source>
        <translation>搜索记忆…</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/memories.py" line="37"/>
        <source>All types</source>
        <translation>全部类型</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/memories.py" line="38"/>
        <source>All tiers</source>
        <translation>全部层级</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/memories.py" line="39"/>
        <source>Any review</source>
        <translation>全部审核状态</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/memories.py" line="42"/>
        <source>New memory</source>
        <translation>新建记忆</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/memories.py" line="91"/>
        <source>1 memory</source>
        <translation>1 条记忆</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/memories.py" line="91"/>
        <source>{0} memories</source>
        <translation>{0} 条记忆</translation>
    </message>
</context>
<context>
    <name>MemoryTable</name>
    <message>
        <location filename="../../bme_desktop/ui/memory_model.py" line="41"/>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/memory_model.py" line="41"/>
        <source>Title</source>
        <translation>标题</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/memory_model.py" line="42"/>
        <source>Tier</source>
        <translation>层级</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/memory_model.py" line="42"/>
        <source>Importance</source>
        <translation>重要度</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/memory_model.py" line="43"/>
        <source>Review</source>
        <translation>审核</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/memory_model.py" line="43"/>
        <source>Recalls</source>
        <translation>召回</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/memory_model.py" line="44"/>
        <source>Updated</source>
        <translation>更新时间</translation>
    </message>
</context>
<context>
    <name>Menus</name>
    <message>
        <location filename="../../bme_desktop/ui/menus.py" line="32"/>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/menus.py" line="33"/>
        <source>Show data folder</source>
        <translation>显示数据文件夹</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/menus.py" line="35"/>
        <source>Open another data folder…</source>
        <translation>打开其他数据文件夹…</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/menus.py" line="39"/>
        <source>Open a data folder</source>
        <translation>打开数据文件夹</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/menus.py" line="44"/>
        <source>Quit</source>
        <translation>退出</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/menus.py" line="48"/>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/menus.py" line="49"/>
        <source>Undo</source>
        <translation>撤销</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/menus.py" line="51"/>
        <source>Redo</source>
        <translation>重做</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/menus.py" line="63"/>
        <source>Nothing to undo.</source>
        <translation>没有可撤销的操作。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/menus.py" line="63"/>
        <source>Undone.</source>
        <translation>已撤销。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/menus.py" line="63"/>
        <source>Nothing to redo.</source>
        <translation>没有可重做的操作。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/menus.py" line="63"/>
        <source>Redone.</source>
        <translation>已重做。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/menus.py" line="69"/>
        <source>New memory</source>
        <translation>新建记忆</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/menus.py" line="79"/>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/menus.py" line="80"/>
        <source>Theme</source>
        <translation>主题</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/menus.py" line="95"/>
        <source>Language</source>
        <translation>语言</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/menus.py" line="105"/>
        <source>Panels</source>
        <translation>面板</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/menus.py" line="108"/>
        <source>Central view</source>
        <translation>中央视图</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/menus.py" line="113"/>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/menus.py" line="114"/>
        <location filename="../../bme_desktop/ui/menus.py" line="115"/>
        <source>About BME Desktop</source>
        <translation>关于 BME Desktop</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/menus.py" line="115"/>
        <source>&lt;b&gt;BME Desktop {0}&lt;/b&gt;&lt;p&gt;Watch, audit and edit what the AI remembers of your chats.&lt;/p&gt;&lt;p&gt;Data folder: {1}&lt;/p&gt;</source>
        <translation>&lt;b&gt;BME Desktop {0}&lt;/b&gt;&lt;p&gt;查看、审核和编辑 AI 对你的聊天所记住的内容。&lt;/p&gt;&lt;p&gt;数据文件夹：{1}&lt;/p&gt;</translation>
    </message>
</context>
<context>
    <name>NebulaView</name>
    <message>
        <location filename="../../bme_desktop/ui/views/nebula/view.py" line="73"/>
        <source>The memory nebula</source>
        <translation>记忆星云</translation>
    </message>
</context>
<context>
    <name>NodeEditor</name>
    <message>
        <location filename="../../bme_desktop/ui/panels/node_editor.py" line="45"/>
        <location filename="../../bme_desktop/ui/panels/node_editor.py" line="187"/>
        <source>No memory selected</source>
        <translation>未选择记忆</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/node_editor.py" line="59"/>
        <source>Pinned (always kept)</source>
        <translation>置顶（始终保留）</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/node_editor.py" line="61"/>
        <source>message numbers, e.g. 3, 4, 9</source>
        <translation>消息序号，例如 3, 4, 9</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/node_editor.py" line="65"/>
        <source>Save</source>
        <translation>保存</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/node_editor.py" line="68"/>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/node_editor.py" line="73"/>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/node_editor.py" line="74"/>
        <source>Importance</source>
        <translation>重要度</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/node_editor.py" line="75"/>
        <source>Tier</source>
        <translation>层级</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/node_editor.py" line="76"/>
        <source>Review</source>
        <translation>审核</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/node_editor.py" line="78"/>
        <source>Source messages</source>
        <translation>来源消息</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/node_editor.py" line="113"/>
        <source>New memory</source>
        <translation>新建记忆</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/node_editor.py" line="114"/>
        <source>Fill in the fields and save.</source>
        <translation>填写字段后保存。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/node_editor.py" line="131"/>
        <source>Source messages must be whole numbers.</source>
        <translation>来源消息必须是整数。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/node_editor.py" line="188"/>
        <source>Pick a memory in the list to see and edit it.</source>
        <translation>在列表中选择一条记忆以查看和编辑。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/node_editor.py" line="193"/>
        <source>Created {0} · updated {1} · recalled {2}×</source>
        <translation>创建于 {0} · 更新于 {1} · 召回 {2} 次</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/node_editor.py" line="206"/>
        <source>Saved “{0}”.</source>
        <translation>已保存“{0}”。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/node_editor.py" line="211"/>
        <source>Created “{0}”.</source>
        <translation>已创建“{0}”。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/node_editor.py" line="215"/>
        <source>Moved to the recycle bin (Ctrl+Z undoes it).</source>
        <translation>已移入回收站（Ctrl+Z 可撤销）。</translation>
    </message>
</context>
<context>
    <name>OverviewPanel</name>
    <message>
        <location filename="../../bme_desktop/ui/panels/overview.py" line="42"/>
        <source>Memories</source>
        <translation>记忆</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/overview.py" line="42"/>
        <source>Links</source>
        <translation>关联</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/overview.py" line="43"/>
        <source>Pending reviews</source>
        <translation>待审核</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/overview.py" line="43"/>
        <source>Messages</source>
        <translation>消息</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/overview.py" line="55"/>
        <source>Memories by type</source>
        <translation>各类型记忆数</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/overview.py" line="87"/>
        <source>No chat open</source>
        <translation>未打开聊天</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/overview.py" line="88"/>
        <source>Chats appear here once SillyTavern syncs them.</source>
        <translation>SillyTavern 同步聊天后会显示在这里。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/overview.py" line="94"/>
        <source>Last activity {0}</source>
        <translation>最近活动 {0}</translation>
    </message>
</context>
<context>
    <name>Panels</name>
    <message>
        <location filename="../../bme_desktop/ui/panels/__init__.py" line="48"/>
        <source>Overview</source>
        <translation>概览</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/__init__.py" line="49"/>
        <source>Memories</source>
        <translation>记忆</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/__init__.py" line="50"/>
        <source>Review</source>
        <translation>审核</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/__init__.py" line="51"/>
        <source>Injection</source>
        <translation>注入</translation>
    </message>
</context>
<context>
    <name>ReviewPanel</name>
    <message>
        <location filename="../../bme_desktop/ui/panels/review.py" line="31"/>
        <source>Approve selected</source>
        <translation>通过所选</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/review.py" line="34"/>
        <source>Reject selected</source>
        <translation>拒绝所选</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/review.py" line="37"/>
        <source>Select all</source>
        <translation>全选</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/review.py" line="74"/>
        <source>Reviewed {0} memories.</source>
        <translation>已审核 {0} 条记忆。</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/panels/review.py" line="85"/>
        <source>{0} waiting · {1} selected</source>
        <translation>{0} 条待审 · 已选 {1} 条</translation>
    </message>
</context>
<context>
    <name>Views</name>
    <message>
        <location filename="../../bme_desktop/ui/views/__init__.py" line="47"/>
        <source>Memory timeline</source>
        <translation>记忆时间线</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/views/__init__.py" line="48"/>
        <source>Memory graph</source>
        <translation>记忆图谱</translation>
    </message>
    <message>
        <location filename="../../bme_desktop/ui/views/__init__.py" line="49"/>
        <source>Memory nebula</source>
        <translation>记忆星云</translation>
    </message>
</context>
</TS>
