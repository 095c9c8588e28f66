// The extension's words in English and Simplified Chinese.
//
// Every user-visible string is written in English in the code, wrapped in t('…')
// (or tn() for a count), and has its Chinese in ZH below; test/i18n.test.js checks
// that no string lacks it and that both say the same {placeholders}. The language
// follows SillyTavern's: its `language` entry in localStorage (set by its language
// menu, e.g. "zh-cn"), else the browser's.

const ZH = Object.freeze({
    // status badge
    'not connected': '未连接',
    'not connected yet': '尚未连接',
    disabled: '已停用',
    connected: '已连接',
    extracting: '提取中',
    offline: '离线',
    error: '错误',
    ' · last recall: {n} node': ' · 上次召回：{n} 条记忆',
    ' · last recall: {n} nodes': ' · 上次召回：{n} 条记忆',
    ' · {n} held for review': ' · {n} 条等待审核',
    ' · kept recall: {n} node': ' · 已保存的召回：{n} 条记忆',
    ' · kept recall: {n} nodes': ' · 已保存的召回：{n} 条记忆',
    'BME Desktop bridge status': 'BME Desktop 桥接服务状态',

    // status messages
    'wrong or missing token: {message}': '令牌错误或缺失：{message}',
    'origin refused by the bridge: {message}': '桥接服务拒绝了此页面的来源：{message}',
    'extracting memories': '正在提取记忆',
    'memories up to date': '记忆已是最新',
    'extracting memories: {done} of {total} messages': '正在提取记忆：{total} 条消息中已完成 {done} 条',
    ' · about {n} min': ' · 约 {n} 分钟',
    ' · about {n} s': ' · 约 {n} 秒',
    'bridge: {message}': '桥接服务：{message}',
    'extracting {n} batch': '正在提取 {n} 批消息',
    'extracting {n} batches': '正在提取 {n} 批消息',
    'synced {n} message': '已同步 {n} 条消息',
    'synced {n} messages': '已同步 {n} 条消息',
    '{n} lorebook entry not kept (see the console)': '{n} 条世界书条目未保存（详见控制台）',
    '{n} lorebook entries not kept (see the console)': '{n} 条世界书条目未保存（详见控制台）',
    'bridge is back': '桥接服务已恢复',
    'the bridge speaks protocol {protocol}; this extension needs protocol 1': '桥接服务使用协议 {protocol}；本扩展需要协议 1',
    'BME Desktop {version} · {n} chat in memory': 'BME Desktop {version} · 记忆中有 {n} 个聊天',
    'BME Desktop {version} · {n} chats in memory': 'BME Desktop {version} · 记忆中有 {n} 个聊天',
    'memory is switched off': '记忆已关闭',
    'no chat is open': '没有打开的聊天',
    'recall failed ({reason}); using the recall kept for this message': '召回失败（{reason}）；改用为这条消息保存的召回',
    '{n} memory held for review — approve it in BME Desktop': '{n} 条记忆等待审核，未被注入——请在 BME Desktop 中通过',
    '{n} memories held for review — approve them in BME Desktop': '{n} 条记忆等待审核，未被注入——请在 BME Desktop 中通过',

    // bridge errors
    'no bridge URL set': '未设置桥接地址',
    'fetch is not available': '此浏览器不支持 fetch',
    'no answer from the bridge within {ms} ms': '桥接服务在 {ms} 毫秒内没有应答',
    cancelled: '已取消',
    'cannot reach the bridge at {url} ({detail})': '无法连接桥接服务 {url}（{detail}）',
    'connection lost while reading the answer ({detail})': '读取应答时连接中断（{detail}）',
    'the bridge answered with something that is not JSON': '桥接服务的应答不是 JSON',

    // toasts
    'BME Desktop Memory': 'BME Desktop Memory',
    'Memory offline: BME Desktop cannot be reached. Replies go on without new memories until it is back.':
        '记忆离线：无法连接 BME Desktop。在它恢复之前，回复将不带新的记忆继续生成。',
    'Memory is back: BME Desktop answers again.': '记忆已恢复：BME Desktop 重新应答了。',

    // settings panel (settings.html)
    'Enable memory (sync chats and inject recalled memories)': '启用记忆（同步聊天并注入召回的记忆）',
    'Bridge URL': '桥接地址',
    'Bridge token': '桥接令牌',
    '(run': '（运行',
    'bme-desktop token': 'bme-desktop token',
    'or copy it from the app)': '或从应用中复制）',
    'paste the token here': '在此粘贴令牌',
    'http://127.0.0.1:7317': 'http://127.0.0.1:7317',
    'Show or hide the token': '显示或隐藏令牌',
    'GET /v1/health, then an authenticated GET /v1/chats': '先 GET /v1/health，再带令牌 GET /v1/chats',
    'Test connection': '测试连接',
    'Connected to BME Desktop by its installer.': '已通过 BME Desktop 安装程序完成连接。',
    Injection: '注入',
    Position: '位置',
    'In chat, at depth': '聊天中，按深度',
    'In prompt (after the system prompt)': '提示词中（系统提示词之后）',
    'Before the prompt': '提示词之前',
    Depth: '深度',
    '(in chat: messages from the end)': '（聊天中：距末尾的消息数）',
    'Memories (top k)': '记忆数（top k）',
    'Budget (tokens)': '预算（token）',
    'Recall timeout (ms)': '召回超时（毫秒）',
    'Show the recalled memories under each user message': '在每条用户消息下显示召回的记忆',
    "Send this chat's lorebooks (World Info) to BME Desktop": '将此聊天的世界书（World Info）发送给 BME Desktop',
    'testing…': '正在测试…',
    'Memory model': '记忆模型',
    'Jobs run as quiet raw generations: not in the chat, never while SillyTavern is generating':
        '任务以静默的原始生成运行：不进入聊天，SillyTavern 生成时从不运行',
    "Let BME Desktop use SillyTavern's model for memory jobs (extraction, summaries, reflection)":
        '让 BME Desktop 使用 SillyTavern 当前的模型处理记忆任务（提取、摘要、反思）',
    'Jobs per minute': '每分钟任务数',
    'Reply tokens per job': '每个任务的回复 token 数',
    'Prompt tokens per job': '每个任务的提示词 token 数',

    // lending SillyTavern's model (lib/modeljobs.js)
    'not lent': '未出借',
    'offered once the bridge is connected': '连接桥接服务后提供',
    'offered; BME Desktop does not use it: {reason}': '已提供；BME Desktop 未使用：{reason}',
    'BME Desktop uses its own model endpoint': 'BME Desktop 使用它自己的模型端点',
    'switched off in BME Desktop (Settings → Language model)': '已在 BME Desktop 中关闭（设置 → 语言模型）',
    'BME Desktop uses the SillyTavern model · {done} done, {failed} fell back':
        'BME Desktop 正在使用 SillyTavern 的模型 · 完成 {done} 个，{failed} 个改走离线方式',
    'lending the model is switched off': '出借模型已关闭',
    'the job has no messages': '任务没有消息',
    'the job needs ~{n} prompt tokens; the limit is {limit}': '任务约需 {n} 个提示词 token；上限为 {limit}',
    'SillyTavern was generating until the job ran out of time': 'SillyTavern 一直在生成，任务已超时',
    'the model did not answer in time': '模型未能及时应答',
    'more than {n} jobs a minute': '超过每分钟 {n} 个任务',
    'this SillyTavern has no raw generation': '此版本的 SillyTavern 没有原始生成功能',
    'the model returned no text': '模型没有返回文本',
    'the reply is longer than {n} bytes': '回复超过 {n} 字节',

    // recall under user messages
    '🧠 memory': '🧠 记忆',
    'Show the memories recalled for this message (BME Desktop)': '显示为这条消息召回的记忆（BME Desktop）',
    'loading…': '正在载入…',
    'No memories were recalled for this message.': '这条消息没有召回任何记忆。',
    'Cannot load the recall: {message}': '无法载入召回：{message}',
    '{n} memory': '{n} 条记忆',
    '{n} memories': '{n} 条记忆',
    ', ~{n} tokens': '，约 {n} 个 token',
    ' · edited by hand': ' · 已手动编辑',
    Save: '保存',
    Delete: '删除',
    'Replace the injection kept for this message (PUT)': '替换为这条消息保存的注入内容（PUT）',
    'Remove the recall kept for this message (DELETE)': '删除为这条消息保存的召回（DELETE）',
    saved: '已保存',
    'failed: {message}': '失败：{message}',
    'Deleted.': '已删除。',
});

export const LOCALES = Object.freeze(['en', 'zh']);
export const TRANSLATIONS = Object.freeze({ zh: ZH });

let current = 'en';

/** 'zh' for SillyTavern set to Chinese (zh-cn, zh-tw, zh_CN…), else 'en'. */
export function detectLocale(env = globalThis) {
    let language = '';
    try { language = String(env?.localStorage?.getItem?.('language') ?? ''); } catch { language = ''; }
    if (!language) language = String(env?.navigator?.language ?? '');
    return /^zh(?:[-_]|$)/i.test(language.trim()) ? 'zh' : 'en';
}

export function setLocale(locale) {
    current = LOCALES.includes(locale) ? locale : 'en';
    return current;
}

export function getLocale() { return current; }

/** `text` in the current language, with `{name}` replaced by `params.name`. */
export function t(text, params = {}) {
    const table = TRANSLATIONS[current];
    const template = table && Object.hasOwn(table, text) ? table[text] : text;
    return template.replace(/\{(\w+)\}/g, (whole, key) => (Object.hasOwn(params, key) ? String(params[key]) : whole));
}

/** `one` or `many` by `n` (English plural), translated, with `{n}` = n. */
export function tn(n, one, many, params = {}) {
    return t(n === 1 ? one : many, { ...params, n });
}

/**
 * Our own settings template in the current language: every text between tags and every
 * title/placeholder attribute is looked up (whitespace around it kept).
 */
export function localizeHtml(html) {
    const translate = (text) => {
        const trimmed = text.trim();
        if (!trimmed) return text;
        const at = text.indexOf(trimmed);
        return text.slice(0, at) + t(trimmed) + text.slice(at + trimmed.length);
    };
    return String(html)
        .replace(/>([^<>]+)</g, (whole, text) => `>${translate(text)}<`)
        .replace(/\b(title|placeholder)="([^"]*)"/g, (whole, name, value) => `${name}="${translate(value)}"`);
}

/** The texts localizeHtml looks up in `html` (for the tests). */
export function htmlTexts(html) {
    const out = [];
    for (const [, text] of String(html).matchAll(/>([^<>]+)</g)) if (text.trim()) out.push(text.trim());
    for (const [, , value] of String(html).matchAll(/\b(title|placeholder)="([^"]*)"/g)) if (value.trim()) out.push(value.trim());
    return out;
}
