// Sync scheduling: coalesces bursts of chat events into few POST /sync calls.
//
// - `schedule({complete: true})` — the whole chat (chat load, edit, delete, swipe).
// - `schedule({from: i})` — the newest messages, from index i (sent, received).
// Requests for the same chat made within `debounceMs` are merged (a complete
// request wins) and sent once; syncs run one at a time, in order. After a
// failed sync, or before the first successful one, a partial request is
// upgraded to a complete one, so the bridge never misses messages.

import { identityOf, membersOf, toBridgeMessages } from './messages.js';
import { LOG_PREFIX } from './constants.js';

export function createSyncScheduler({
    client, getContext, currentChatId, settings, onResult, onError, logger, timers, getPersonaId = () => undefined,
}) {
    const { setTimeout: setT, clearTimeout: clearT } = timers;
    /** @type {{chatId: string, complete: boolean, from: number}|null} */
    let pending = null;
    let timer = null;
    let chain = Promise.resolve();
    let running = 0;
    /** chatId → chat length at the last successful sync */
    const syncedLength = new Map();
    const needsComplete = new Set();

    function schedule({ complete = false, from = Infinity } = {}) {
        const chatId = currentChatId();
        if (!chatId) return;
        if (pending && pending.chatId !== chatId) pending = null; // that chat is gone; its next load syncs it completely
        if (!pending) pending = { chatId, complete: false, from: Infinity };
        pending.complete ||= complete;
        if (Number.isFinite(from)) pending.from = Math.min(pending.from, Math.max(0, from));
        if (timer !== null) clearT(timer);
        const delay = settings().debounceMs;
        timer = setT(() => { timer = null; flush(); }, delay);
    }

    /** Send what is pending now. Resolves when that sync has finished. */
    function flush() {
        if (timer !== null) { clearT(timer); timer = null; }
        const job = pending;
        pending = null;
        if (!job) return chain;
        running++;
        chain = chain.then(() => run(job)).catch(() => {}).finally(() => { running--; });
        return chain;
    }

    async function run(job) {
        const ctx = getContext();
        if (currentChatId(ctx) !== job.chatId) return; // switched away before the sync went out
        const chat = Array.isArray(ctx.chat) ? ctx.chat : [];
        let complete = job.complete || needsComplete.has(job.chatId) || !syncedLength.has(job.chatId);
        let from = 0;
        if (!complete) {
            from = Math.min(job.from, syncedLength.get(job.chatId));
            if (!Number.isFinite(from)) from = Math.max(0, chat.length - 1);
            if (from >= chat.length && chat.length < syncedLength.get(job.chatId)) complete = true; // shrank: a delete
        }
        const messages = toBridgeMessages(chat, complete ? 0 : from);
        if (!complete && messages.length === 0) return;
        const payload = {
            character: characterName(ctx),
            user: typeof ctx.name1 === 'string' ? ctx.name1 : undefined,
            ...identityOf(ctx, personaIdOf(getPersonaId, logger)),
            ...membersOf(ctx),
            messages,
            complete,
        };
        try {
            const result = await client.sync(job.chatId, payload, { timeoutMs: settings().syncTimeoutMs });
            syncedLength.set(job.chatId, chat.length);
            needsComplete.delete(job.chatId);
            onResult?.(result, { chatId: job.chatId, complete, count: messages.length });
        } catch (err) {
            needsComplete.add(job.chatId);
            logger.warn?.(`${LOG_PREFIX} sync of chat failed:`, err?.message ?? err);
            onError?.(err, { chatId: job.chatId, complete });
        }
    }

    /** Resolves when nothing is pending or running (tests, shutdown). */
    async function idle() {
        for (;;) {
            if (timer !== null || pending) { await flush(); continue; }
            const current = chain;
            await current;
            if (current === chain && running === 0 && timer === null && !pending) return;
        }
    }

    function forget(chatId) {
        syncedLength.delete(chatId);
        needsComplete.delete(chatId);
    }

    function cancel() {
        if (timer !== null) { clearT(timer); timer = null; }
        pending = null;
    }

    return { schedule, flush, idle, forget, cancel, hasPending: () => pending !== null };
}

/** The character (or group) name for the sync body. */
export function characterName(ctx) {
    if (ctx.groupId !== undefined && ctx.groupId !== null && Array.isArray(ctx.groups)) {
        const group = ctx.groups.find((g) => String(g?.id) === String(ctx.groupId));
        if (group?.name) return String(group.name);
    }
    if (typeof ctx.name2 === 'string' && ctx.name2 && ctx.name2 !== 'SillyTavern System') return ctx.name2;
    return undefined;
}

/** The persona's id from SillyTavern (never throws: a sync goes out without it). */
function personaIdOf(getPersonaId, logger) {
    try { return getPersonaId(); } catch (err) {
        logger.warn?.(`${LOG_PREFIX} the persona id cannot be read:`, err?.message ?? err);
        return undefined;
    }
}
