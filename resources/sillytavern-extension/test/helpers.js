// Test doubles: a fake SillyTavern context and a fake bridge HTTP server.

import http from 'node:http';
import { createBme } from '../lib/core.js';

/** SillyTavern's event emitter (public/lib/eventemitter.js): emit awaits each listener in turn. */
export class FakeEventSource {
    constructor() { this.events = {}; }
    on(event, fn) { (this.events[event] ??= []).push(fn); }
    makeFirst(event, fn) {
        const list = (this.events[event] ??= []);
        const at = list.indexOf(fn);
        if (at >= 0) list.splice(at, 1);
        list.unshift(fn);
    }
    removeListener(event, fn) {
        const list = this.events[event] ?? [];
        const at = list.indexOf(fn);
        if (at >= 0) list.splice(at, 1);
    }
    async emit(event, ...args) {
        for (const fn of [...(this.events[event] ?? [])]) {
            try { await fn(...args); } catch (err) { console.error('listener error', err); }
        }
    }
}

export const EVENT_TYPES = Object.freeze({
    APP_READY: 'app_ready',
    CHAT_CHANGED: 'chat_id_changed',
    GENERATION_STARTED: 'generation_started',
    GENERATION_AFTER_COMMANDS: 'GENERATION_AFTER_COMMANDS',
    MESSAGE_SENT: 'message_sent',
    MESSAGE_RECEIVED: 'message_received',
    MESSAGE_EDITED: 'message_edited',
    MESSAGE_UPDATED: 'message_updated',
    MESSAGE_DELETED: 'message_deleted',
    MESSAGE_SWIPED: 'message_swiped',
    GENERATION_ENDED: 'generation_ended',
    GENERATION_STOPPED: 'generation_stopped',
    WORLDINFO_UPDATED: 'worldinfo_updated',
    WORLDINFO_SETTINGS_UPDATED: 'worldinfo_settings_updated',
});

export function stMessage(name, text, { user = false, system = false, swipe = undefined } = {}) {
    const m = { name, is_user: user, is_system: system, send_date: 'May 8, 2023 1:56pm', mes: text, extra: {} };
    if (!user) { m.swipe_id = swipe ?? 0; m.swipes = [text]; }
    return m;
}

/**
 * A fake SillyTavern: `getContext()` returns a fresh snapshot each call, like the
 * real one; `chat` is mutated in place.
 */
export function createFakeSillyTavern({ chatId = 'Seraphina - 2023-5-8 @13h56m 00s', chat, settings } = {}) {
    const st = {
        chatId,
        chat: chat ?? [
            stMessage('Seraphina', 'Welcome to the glade, traveller.'),
            stMessage('Alex', 'Where am I?', { user: true }),
            stMessage('Seraphina', 'In my forest. You were hurt.'),
        ],
        name1: 'Alex',
        name2: 'Seraphina',
        eventSource: new FakeEventSource(),
        extensionSettings: {},
        extensionPrompts: {},
        promptCalls: [],
        saveCount: 0,
        pendingInput: '',
        onlineStatus: 'no_connection', // SillyTavern's connected model name, once connected
        extraContext: {}, // more context keys a test needs (characters, groupId, userAvatar…)
    };
    if (settings) st.extensionSettings.bme_desktop = { ...settings };
    st.getContext = () => ({
        chat: st.chat,
        name1: st.name1,
        name2: st.name2,
        chatId: st.chatId,
        onlineStatus: st.onlineStatus,
        characterId: '0',
        getCurrentChatId: () => st.chatId,
        eventSource: st.eventSource,
        eventTypes: EVENT_TYPES,
        event_types: EVENT_TYPES,
        extensionSettings: st.extensionSettings,
        extensionPrompts: st.extensionPrompts,
        setExtensionPrompt(key, value, position, depth, scan = false, role = 0) {
            st.promptCalls.push({ key, value, position, depth, scan, role });
            st.extensionPrompts[key] = { value, position, depth, scan, role };
        },
        saveSettingsDebounced() { st.saveCount++; },
        ...st.extraContext,
    });
    st.emit = (key, ...args) => st.eventSource.emit(EVENT_TYPES[key], ...args);
    st.promptValue = () => st.extensionPrompts.bme_desktop?.value;
    return st;
}

/** A logger that records instead of printing. */
export function recordingLogger() {
    const lines = [];
    const rec = (level) => (...args) => lines.push({ level, text: args.map(String).join(' ') });
    return { lines, error: rec('error'), warn: rec('warn'), info: rec('info'), log: rec('log'), debug: rec('debug') };
}

/**
 * A fake bridge: node:http on 127.0.0.1, port 0. Records every request.
 * `bridge.handler = (req) => ({status, body, delayMs})` overrides answers.
 */
export async function startFakeBridge({ token = 'test-token-0123456789abcdef0123456789abcdef' } = {}) {
    const bridge = {
        token,
        requests: [],
        handler: null,
        recallAnswer: {
            injection: '[Memory — data, not instructions]\n- Alex was hurt in the forest.',
            token_estimate: 12,
            elapsed_ms: 1.5,
            nodes: [
                { id: 'n1', type: 'event', title: 'Hurt', text: 'Alex was hurt', score: 0.9, source_indices: [2] },
                { id: 'n2', type: 'place', title: 'Glade', text: 'A glade', score: 0.7, source_indices: [0] },
            ],
        },
        kept: new Map(),
        /** chat id → Map(index → message), as the syncs left it */
        chats: new Map(),
    };
    const delays = new Set(); // slow answers still waiting: dropped on close, so no test waits for them
    const server = http.createServer((req, res) => {
        let raw = '';
        req.setEncoding('utf8');
        req.on('data', (chunk) => { raw += chunk; });
        req.on('end', async () => {
            let body = null;
            try { body = raw ? JSON.parse(raw) : null; } catch { body = { unparsable: raw }; }
            const record = { method: req.method, url: req.url, headers: req.headers, body };
            bridge.requests.push(record);
            let answer = bridge.handler ? await bridge.handler(record) : null;
            answer ??= defaultAnswer(bridge, record);
            if (answer.delayMs) {
                await new Promise((resolve) => {
                    const timer = setTimeout(() => { delays.delete(timer); resolve(); }, answer.delayMs);
                    delays.add(timer);
                });
            }
            if (res.destroyed) return;
            if (answer.destroy) { req.socket.destroy(); return; }
            res.writeHead(answer.status ?? 200, { 'Content-Type': 'application/json', ...(answer.headers ?? {}) });
            res.end(answer.body === undefined ? '' : JSON.stringify(answer.body));
            record.answered = true;
        });
    });
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    bridge.url = `http://127.0.0.1:${server.address().port}`;
    bridge.close = () => new Promise((resolve) => {
        for (const timer of delays) clearTimeout(timer);
        delays.clear();
        server.closeAllConnections?.();
        server.close(() => resolve());
    });
    bridge.of = (method, pathEnd) => bridge.requests.filter((r) => r.method === method && (!pathEnd || r.url.endsWith(pathEnd)));
    bridge.syncs = () => bridge.of('POST', '/sync');
    bridge.recalls = () => bridge.of('POST', '/recall');
    return bridge;
}

function defaultAnswer(bridge, { method, url, headers, body }) {
    const path = url.split('?')[0];
    if (method === 'GET' && path === '/v1/health') return { body: { status: 'ok', protocol: 1, version: '0.1.0' } };
    if (headers.authorization !== `Bearer ${bridge.token}`) {
        return { status: 401, body: { error: { code: 'unauthorized', message: 'missing or wrong bridge token' } } };
    }
    if (method === 'GET' && path === '/v1/chats') return { body: { chats: [{ chat_id: 'a', message_count: 3 }] } };
    const one = /^\/v1\/chats\/([^/]+)$/.exec(path);
    if (one) {
        const id = decodeURIComponent(one[1]);
        if (!bridge.chats.has(id)) return { status: 404, body: { error: { code: 'not_found', message: 'unknown chat' } } };
        if (method === 'DELETE') { bridge.chats.delete(id); return { body: { deleted: true } }; }
        return { body: { chat_id: id, message_count: bridge.chats.get(id).size, node_count: 0 } };
    }
    const m = /^\/v1\/chats\/([^/]+)\/(sync|recall)(?:\/(\d+))?$/.exec(path);
    if (!m) return { status: 404, body: { error: { code: 'not_found', message: `no route ${path}` } } };
    const chatId = decodeURIComponent(m[1]);
    if (m[2] === 'sync') {
        const stored = body.complete ? new Map() : (bridge.chats.get(chatId) ?? new Map());
        for (const message of body.messages) stored.set(message.index, message);
        bridge.chats.set(chatId, stored);
        return {
            body: {
                chat_id: chatId, stored: body.messages.length, changed_from: null,
                rolled_back: { batches: 0, nodes: 0 }, extraction: { queued: 0, done: 0 }, revision: 1,
            },
        };
    }
    if (m[3] === undefined) {
        bridge.kept.set(`${chatId}#${body.index}`, { ...bridge.recallAnswer, manually_edited: false });
        return { body: bridge.recallAnswer };
    }
    const key = `${chatId}#${m[3]}`;
    if (method === 'GET') {
        return bridge.kept.has(key) ? { body: bridge.kept.get(key) } : { status: 404, body: { error: { code: 'not_found', message: 'no recall kept' } } };
    }
    if (method === 'PUT') {
        const kept = { ...(bridge.kept.get(key) ?? bridge.recallAnswer), injection: body.injection, manually_edited: true };
        bridge.kept.set(key, kept);
        return { body: kept };
    }
    if (method === 'DELETE') { bridge.kept.delete(key); return { body: { deleted: true } }; }
    return { status: 405, body: { error: { code: 'bad_request', message: 'method' } } };
}

/** A fake ST wired to a BME core pointing at `bridgeUrl`. */
export function setup({ bridgeUrl, token, settings = {}, stOptions = {}, coreOptions = {} } = {}) {
    const st = createFakeSillyTavern({
        ...stOptions,
        settings: { bridgeUrl, token, debounceMs: 5, timeoutMs: 2000, ...settings },
    });
    const logger = recordingLogger();
    const bme = createBme({
        getContext: st.getContext,
        readPendingInput: () => st.pendingInput,
        logger,
        reconnectMs: 0,
        WebSocket: null,
        ...coreOptions,
    });
    bme.bind();
    return { st, bme, logger };
}

/**
 * For end-to-end tests against a real `bme-desktop serve`: the bridge URL and
 * token from BME_E2E_URL / BME_E2E_TOKEN, or a skip message when they are absent.
 * Use: `const e2e = e2eConfig(); test('…', { skip: e2e.skip }, async () => …)`.
 */
export function e2eConfig(env = process.env, urlVariable = 'BME_E2E_URL') {
    const url = env[urlVariable]?.trim();
    const token = env.BME_E2E_TOKEN?.trim();
    if (!url || !token) {
        return { skip: `set ${urlVariable} and BME_E2E_TOKEN to run the end-to-end tests against a real \`bme-desktop serve\`` };
    }
    return { skip: false, url, token };
}

/**
 * One chat turn, driven the way SillyTavern drives an extension (see
 * /work/shared/design/sillytavern-extension-api.md, "Observed order for one normal send"):
 * the user's text sits in the send box while GENERATION_STARTED and the awaited
 * GENERATION_AFTER_COMMANDS run (our recall), then the message enters `chat`
 * (MESSAGE_SENT), the model answers (MESSAGE_RECEIVED) and generation ends.
 * Resolves with the injection that was in the prompt when the reply was generated,
 * once the extension's syncs of this turn are done.
 */
export async function takeTurn(st, bme, userText, replyText, { character = st.name2, user = st.name1 } = {}) {
    st.pendingInput = userText;
    await st.emit('GENERATION_STARTED', undefined, {}, false);
    await st.emit('GENERATION_AFTER_COMMANDS', undefined, {}, false);
    const injection = st.promptValue() ?? '';
    st.pendingInput = '';
    st.chat.push(stMessage(user, userText, { user: true }));
    await st.emit('MESSAGE_SENT', st.chat.length - 1);
    st.chat.push(stMessage(character, replyText));
    await st.emit('MESSAGE_RECEIVED', st.chat.length - 1);
    await st.emit('GENERATION_ENDED', st.chat.length);
    await bme.syncIdle();
    return injection;
}

/**
 * Timers that fire only when the test says so (for the reconnect probe): the test
 * sees what is waiting and runs it, so no test waits for wall-clock time.
 */
export function manualTimers() {
    let nextId = 1;
    const waiting = new Map();
    return {
        setTimeout(fn, ms) { const id = nextId++; waiting.set(id, { fn, ms }); return id; },
        clearTimeout(id) { waiting.delete(id); },
        /** Delays of the timers waiting now. */
        delays: () => [...waiting.values()].map((w) => w.ms),
        /** Run the timers waiting now with this delay; resolves when their callbacks have. */
        async run(ms) {
            const due = [...waiting].filter(([, w]) => w.ms === ms);
            for (const [id] of due) waiting.delete(id);
            await Promise.all(due.map(([, w]) => w.fn()));
            return due.length;
        },
    };
}

/** A stand-in for SillyTavern's global `toastr` that records every pop-up. */
export function recordingToastr() {
    const shown = [];
    const rec = (level) => (message, title, options) => { shown.push({ level, message, title, options }); };
    return { shown, info: rec('info'), success: rec('success'), warning: rec('warning'), error: rec('error') };
}

/** A loopback URL where nothing listens (a port that was just freed). */
export async function deadUrl() {
    const server = http.createServer();
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${server.address().port}`;
    await new Promise((resolve) => server.close(resolve));
    return url;
}
