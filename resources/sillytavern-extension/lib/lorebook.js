// SillyTavern's lorebooks (World Info) for the open chat, sent to the bridge
// (PUT /v1/chats/{chat}/lorebook), which keeps them as read-only world memories.
//
// The entries are the ones SillyTavern itself resolves for the chat: world-info.js
// getSortedEntries() gathers the global books, the character's books (its card's
// `extensions.world` and the extra books linked to it) and the chat's book, leaving out a
// book already taken another way. Each entry carries `world` (its book's name) and `uid`.
// Switched-off entries are sent as such (the bridge leaves them out). The whole set goes
// each time; an unchanged set is not sent again.

import { LOG_PREFIX } from './constants.js';

/** The fields the bridge keeps of an entry (SillyTavern's names; `world` becomes `book`). */
export function toBridgeEntries(entries) {
    const out = [];
    const seen = new Set();
    for (const e of Array.isArray(entries) ? entries : []) {
        if (!e || typeof e !== 'object' || typeof e.world !== 'string' || !e.world.trim()) continue;
        if (e.uid === undefined || e.uid === null) continue;
        const id = `${e.world}\u0000${e.uid}`;
        if (seen.has(id)) continue; // a book reached two ways is one book
        seen.add(id);
        out.push({
            book: e.world,
            uid: e.uid,
            key: Array.isArray(e.key) ? e.key.filter((k) => typeof k === 'string') : [],
            keysecondary: Array.isArray(e.keysecondary) ? e.keysecondary.filter((k) => typeof k === 'string') : [],
            comment: typeof e.comment === 'string' ? e.comment : '',
            content: typeof e.content === 'string' ? e.content : '',
            constant: e.constant === true,
            order: Number.isFinite(Number(e.order)) ? Math.round(Number(e.order)) : 100,
            position: Number.isInteger(Number(e.position)) ? Number(e.position) : 0,
            disable: e.disable === true,
        });
    }
    return out;
}

/**
 * @param {object} deps
 * @param {import('./client.js').BridgeClient} deps.client
 * @param {() => Promise<object[]|null>} deps.getEntries  SillyTavern's getSortedEntries (null: none here)
 * @param {() => string|null} deps.currentChatId
 * @param {() => object} deps.settings
 * @param {(result: object, chatId: string) => void} [deps.onResult]
 */
export function createLorebookSync({ client, getEntries, currentChatId, settings, logger, timers, onResult }) {
    /** chatId → the JSON last sent and accepted */
    const sent = new Map();
    let timer = null;
    let chain = Promise.resolve();

    function schedule() {
        if (timer !== null) timers.clearTimeout(timer);
        timer = timers.setTimeout(() => { timer = null; flush(); }, settings().debounceMs);
    }

    function flush() {
        if (timer !== null) { timers.clearTimeout(timer); timer = null; }
        chain = chain.then(run).catch(() => {});
        return chain;
    }

    async function run() {
        const s = settings();
        const chatId = currentChatId();
        if (!s.enabled || !s.sendLorebook || !chatId) return;
        let entries;
        try {
            entries = await getEntries();
        } catch (err) {
            logger.warn?.(`${LOG_PREFIX} SillyTavern's lorebook entries cannot be read:`, err?.message ?? err);
            return;
        }
        if (!Array.isArray(entries)) return; // this SillyTavern gives none
        if (currentChatId() !== chatId) return; // switched away meanwhile: that chat's load sends its own
        const body = toBridgeEntries(entries);
        const text = JSON.stringify(body);
        if (sent.get(chatId) === text) return;
        try {
            const result = await client.request('PUT', `/v1/chats/${encodeURIComponent(chatId)}/lorebook`,
                { body: { entries: body }, timeoutMs: s.syncTimeoutMs });
            sent.set(chatId, text);
            onResult?.(result, chatId);
        } catch (err) {
            logger.warn?.(`${LOG_PREFIX} sending the lorebook failed:`, err?.message ?? err);
        }
    }

    return {
        schedule,
        flush,
        forget: (chatId) => sent.delete(chatId),
        cancel() { if (timer !== null) { timers.clearTimeout(timer); timer = null; } },
        idle: async () => { if (timer !== null) await flush(); await chain; },
    };
}
