// The extension's logic, independent of the browser: it gets SillyTavern's
// context through `getContext` (call it again each time: it is a snapshot) and
// talks to the bridge through `fetch`. index.js binds it to the real page;
// the tests bind it to a fake context and a fake bridge.

import {
    LOG_PREFIX, PROMPT_KEY, PROMPT_POSITIONS, ROLE_SYSTEM, SETTINGS_KEY, applyDefaults,
} from './constants.js';
import { BridgeClient } from './client.js';
import { chooseRecallInput, isSlashCommand, skipReason, speakerOf } from './messages.js';
import { createStatus, progressText, statusForError } from './status.js';
import { createSyncScheduler } from './sync.js';
import { createEventStream } from './events.js';
import { createNotices } from './notices.js';
import { createModelJobs } from './modeljobs.js';
import { createLorebookSync } from './lorebook.js';
import { t, tn } from './i18n.js';

/** At most this long (and never longer than the recall timeout) for the kept-recall fallback. */
export const KEPT_RECALL_TIMEOUT_MS = 1000;
/** Failures after which the kept recall is worth asking for (the bridge may still serve a read). */
const FALLBACK_KINDS = new Set(['offline', 'timeout', 'http', 'bad_response']);

/**
 * @param {object} deps
 * @param {() => object} deps.getContext  `SillyTavern.getContext`
 * @param {typeof fetch} [deps.fetch]
 * @param {() => string} [deps.readPendingInput]  text in the send box (not yet in `chat`)
 * @param {object} [deps.logger]  console-like
 * @param {number} [deps.reconnectMs]  probe an offline bridge this often (0: never)
 * @param {Function|null} [deps.WebSocket]  for live extraction status (null: none)
 * @param {{setTimeout: Function, clearTimeout: Function}} [deps.timers]
 * @param {object|null} [deps.toastr]  SillyTavern's `toastr` for pop-up notices (null: none)
 * @param {() => Function|null} [deps.generateRaw]  SillyTavern's generateRaw, for the memory jobs
 *   BME Desktop sends (default: the context's, where it has one)
 * @param {() => boolean} [deps.isGenerating]  whether SillyTavern is generating now (its stop button shows)
 * @param {() => string|undefined} [deps.getPersonaId]  the user persona's id (SillyTavern's `user_avatar`)
 * @param {() => Promise<object[]|null>} [deps.getLorebookEntries]  the chat's World Info entries as
 *   SillyTavern resolves them (world-info.js getSortedEntries; null where there is none)
 */
export function createBme(deps) {
    const {
        getContext,
        fetch: fetchImpl = globalThis.fetch?.bind(globalThis),
        readPendingInput = () => '',
        logger = console,
        reconnectMs = 15000,
        WebSocket: WebSocketImpl = globalThis.WebSocket ?? null,
        timers = { setTimeout: globalThis.setTimeout.bind(globalThis), clearTimeout: globalThis.clearTimeout.bind(globalThis) },
        toastr = globalThis.toastr ?? null,
        generateRaw = () => { const fn = getContext().generateRaw; return typeof fn === 'function' ? fn : null; },
        isGenerating = () => false,
        getPersonaId = () => { const ctx = getContext(); return ctx.userAvatar ?? ctx.user_avatar; },
        getLorebookEntries = async () => null,
    } = deps;

    const status = createStatus();
    const notices = createNotices({ status, toastr, logger });
    /** Chats whose memories held for review were announced (until none is held again). */
    const heldAnnounced = new Set();
    const bound = [];
    const recallListeners = new Set();
    let reconnectTimer = null;
    let disposed = false;
    let generation = 0;

    /** The settings object inside extensionSettings, created and completed on demand. */
    function settings() {
        const ctx = getContext();
        const all = ctx.extensionSettings ?? (ctx.extensionSettings = {});
        all[SETTINGS_KEY] = applyDefaults(all[SETTINGS_KEY]);
        return all[SETTINGS_KEY];
    }

    function saveSettings() {
        try { getContext().saveSettingsDebounced?.(); } catch (err) { logError('saving settings failed', err); }
    }

    function currentChatId(ctx = getContext()) {
        let id;
        try { id = typeof ctx.getCurrentChatId === 'function' ? ctx.getCurrentChatId() : ctx.chatId; } catch { id = ctx.chatId; }
        if (id === undefined || id === null) return null;
        const text = String(id);
        return text.length > 0 ? text : null;
    }

    function logError(what, err) {
        try { logger.error?.(`${LOG_PREFIX} ${what}:`, err?.message ?? err); } catch { /* never throw from logging */ }
    }

    const client = new BridgeClient({ config: settings, fetch: fetchImpl });

    const modelListeners = new Set();
    const jobs = createModelJobs({
        getContext,
        settings,
        generateRaw,
        isGenerating,
        send: (message) => events.send(message),
        timers,
        logger,
        onChange(state) {
            for (const fn of modelListeners) {
                try { fn(state); } catch (err) { logError('model-job listener failed', err); }
            }
        },
    });

    let importing = false; // the last extraction.progress said messages are still due

    const events = createEventStream({
        WebSocket: WebSocketImpl,
        config: settings,
        currentChatId: () => currentChatId(),
        timers,
        logger,
        onMessage: (message) => (typeof message.type === 'string' && message.type.startsWith('model.') ? jobs.handle(message) : false),
        onOpen: () => { jobs.offer(); },
        onClose: () => { jobs.onSocketClosed(); },
        onEvent(event) {
            if (event.type === 'extraction.progress') {
                importing = event.due > 0;
                if (importing) status.set({ state: 'extracting', message: progressText(event) });
                else if (status.get().state === 'extracting') status.set({ state: 'connected', message: t('memories up to date') });
            } else if (event.type === 'extraction.started') {
                if (!importing) status.set({ state: 'extracting', message: t('extracting memories') });
            } else if (event.type === 'extraction.finished' && status.get().state === 'extracting') {
                // during a long import the progress events say when it is done, not each batch
                if (!importing) status.set({ state: 'connected', message: t('memories up to date') });
            } else if (event.type === 'error') status.set({ message: t('bridge: {message}', { message: event.message ?? t('error') }) });
        },
    });

    function noteSuccess(patch = {}) {
        // "extracting" lasts until the live events say it finished; without them, until the next call
        const sticky = status.get().state === 'extracting' && events.isOpen();
        const state = patch.state ?? (sticky ? 'extracting' : 'connected');
        status.set({ message: '', ...patch, state });
        stopReconnect();
    }

    function noteFailure(err) {
        status.set(statusForError(err));
        if (err?.kind === 'offline' || err?.kind === 'timeout') startReconnect();
    }

    const lorebook = createLorebookSync({
        client,
        getEntries: getLorebookEntries,
        currentChatId: () => currentChatId(),
        settings,
        logger,
        timers,
        onResult(result) {
            const refused = Array.isArray(result?.refused) ? result.refused : [];
            for (const r of refused) logger.warn?.(`${LOG_PREFIX} lorebook entry ${r?.book} #${r?.uid} not kept: ${r?.reason}`);
            if (refused.length) {
                status.set({ message: tn(refused.length, '{n} lorebook entry not kept (see the console)',
                    '{n} lorebook entries not kept (see the console)') });
            }
        },
    });

    const sync = createSyncScheduler({
        client,
        getContext,
        getPersonaId,
        currentChatId,
        settings,
        logger,
        timers,
        onResult(result, { complete }) {
            if (complete) lorebook.schedule(); // the chat exists now: its lorebook can follow
            const queued = Number(result?.extraction?.queued ?? 0);
            const done = Number(result?.extraction?.done ?? 0);
            const stored = Number(result?.stored ?? 0);
            if (queued > done) noteSuccess({ state: 'extracting', message: tn(queued - done, 'extracting {n} batch', 'extracting {n} batches') });
            else noteSuccess({ state: 'connected', message: tn(stored, 'synced {n} message', 'synced {n} messages') });
        },
        onError(err) {
            noteFailure(err);
            if (err?.kind === 'rate_limited' && !disposed) {
                // the next sync is complete anyway (see sync.js); send it when the bridge allows
                const waitMs = Math.min(60, Math.max(1, err.retryAfter || 5)) * 1000;
                timers.setTimeout(() => { if (!disposed) sync.schedule({ complete: true }); }, waitMs);
            }
        },
    });

    // ----- extension prompt -------------------------------------------------

    function setPrompt(text) {
        const s = settings();
        const ctx = getContext();
        if (typeof ctx.setExtensionPrompt !== 'function') return;
        const position = PROMPT_POSITIONS[s.position] ?? PROMPT_POSITIONS.in_chat;
        ctx.setExtensionPrompt(PROMPT_KEY, text, position, s.depth, false, ROLE_SYSTEM);
    }

    function clearPrompt() {
        try { setPrompt(''); } catch (err) { logError('clearing the memory prompt failed', err); }
    }

    // ----- event handlers (never throw into SillyTavern) ---------------------

    function guard(name, fn) {
        return (...args) => {
            try {
                const out = fn(...args);
                if (out && typeof out.then === 'function') {
                    return out.catch((err) => { logError(`${name} failed`, err); });
                }
                return out;
            } catch (err) {
                logError(`${name} failed`, err);
                return undefined;
            }
        };
    }

    function onChatChanged() {
        generation++;
        clearPrompt();
        status.set({ lastRecall: null });
        if (!settings().enabled) return;
        const chatId = currentChatId();
        events.watch(chatId);
        if (chatId) {
            sync.forget(chatId); // a freshly loaded chat is always sent whole
            lorebook.forget(chatId); // ... and so is its lorebook, after it
            sync.schedule({ complete: true });
        }
    }

    function indexArg(value) {
        const n = Number.parseInt(String(value), 10);
        return Number.isFinite(n) && n >= 0 ? n : Infinity;
    }

    function onNewMessage(index) {
        if (!settings().enabled) return;
        sync.schedule({ from: indexArg(index) });
    }

    function onHistoryChanged() {
        if (!settings().enabled) return;
        sync.schedule({ complete: true });
    }

    /**
     * Before generation (GENERATION_AFTER_COMMANDS, registered with makeFirst so
     * it runs first). SillyTavern awaits it; the bridge call is bounded by
     * `timeoutMs`, so a slow or absent bridge delays generation by at most that.
     */
    async function onBeforeGeneration(type, options, dryRun) {
        const reason = skipReason(type, options, dryRun);
        if (reason) return { skipped: reason };
        const s = settings();
        if (!s.enabled) { clearPrompt(); return { skipped: 'disabled' }; }
        const ctx = getContext();
        const chatId = currentChatId(ctx);
        if (!chatId) { clearPrompt(); return { skipped: 'no chat' }; }
        let pendingText = '';
        try { pendingText = readPendingInput() ?? ''; } catch { pendingText = ''; }
        const choice = chooseRecallInput({ type, chat: ctx.chat, pendingText });
        if (choice.skip === 'slash command') return { skipped: choice.skip };
        if (choice.skip) { clearPrompt(); return { skipped: choice.skip }; }

        const myGeneration = ++generation;
        let timeoutMs = s.timeoutMs;
        if (sync.hasPending()) {
            // An edit, delete or swipe is waiting in the debounce: let the bridge see it before it
            // recalls, so memories of a discarded reply are not injected. Half the budget at most.
            const started = Date.now();
            let timer;
            await Promise.race([sync.flush(), new Promise((r) => { timer = timers.setTimeout(r, timeoutMs / 2); })]);
            timers.clearTimeout(timer);
            timeoutMs = Math.max(timeoutMs / 2, timeoutMs - (Date.now() - started));
        }
        const body = { user_input: choice.user_input, index: choice.index, top_k: s.topK, budget_tokens: s.budgetTokens };
        const speaker = speakerOf(ctx, options); // a group chat: only what this character witnessed
        if (speaker) body.for_character = speaker;
        const stillCurrent = () => myGeneration === generation && currentChatId() === chatId;
        let result;
        try {
            result = await client.recall(chatId, body, { timeoutMs });
        } catch (err) {
            noteFailure(err);
            // ST-BME's injection order: a fresh recall, else the recall kept for this message, else nothing.
            const kept = await keptRecall(chatId, choice.index, err, s.timeoutMs);
            if (!stillCurrent()) return { skipped: 'superseded' };
            if (!kept) {
                clearPrompt();
                logError('recall failed, generating without memory', err);
                return { error: err };
            }
            setPrompt(kept.injection);
            const lastRecall = {
                nodes: kept.nodes, tokens: kept.tokens, index: choice.index, chatId, empty: false, kept: true,
            };
            status.set({ lastRecall, message: t('recall failed ({reason}); using the recall kept for this message', { reason: err?.message ?? err }) });
            logError('recall failed, generating with the recall kept for this message', err);
            announceRecall(lastRecall, kept.injection, kept.result);
            return { injection: kept.injection, nodes: kept.nodes, kept: true, error: err };
        }
        if (!stillCurrent()) return { skipped: 'superseded' };
        const injection = typeof result?.injection === 'string' ? result.injection : '';
        setPrompt(injection);
        const nodes = Array.isArray(result?.nodes) ? result.nodes.length : 0;
        const held = heldForReview(result);
        const lastRecall = {
            nodes, tokens: Number(result?.token_estimate ?? 0), index: choice.index, chatId, empty: !injection, held,
        };
        noteSuccess({ lastRecall });
        noteHeld(chatId, held);
        announceRecall(lastRecall, injection, result);
        return { injection, nodes };
    }

    function announceRecall(lastRecall, injection, result) {
        for (const fn of recallListeners) {
            try { fn({ ...lastRecall, injection, result }); } catch (err) { logError('recall listener failed', err); }
        }
    }

    /**
     * After a failed recall: the recall the bridge kept for message `index`
     * (GET /recall/{index}) if it has a non-empty one, else null. Bounded by
     * KEPT_RECALL_TIMEOUT_MS, so generation waits at most that much longer.
     */
    async function keptRecall(chatId, index, err, recallTimeoutMs) {
        if (!FALLBACK_KINDS.has(err?.kind)) return null;
        let kept;
        try {
            kept = await client.getRecall(chatId, index, { timeoutMs: Math.min(KEPT_RECALL_TIMEOUT_MS, recallTimeoutMs) });
        } catch (fallbackErr) {
            if (fallbackErr?.kind !== 'not_found') logger.debug?.(`${LOG_PREFIX} no kept recall to fall back on:`, fallbackErr?.message ?? fallbackErr);
            return null;
        }
        const injection = typeof kept?.injection === 'string' ? kept.injection : '';
        if (!injection) return null;
        return {
            injection,
            nodes: Array.isArray(kept?.nodes) ? kept.nodes.length : 0,
            tokens: Number(kept?.token_estimate ?? 0),
            result: kept,
        };
    }

    /** `held_for_review` of a recall answer: a count ≥ 0 (older bridges do not send it: 0). */
    function heldForReview(result) {
        const n = result?.held_for_review;
        return typeof n === 'number' && Number.isInteger(n) && n > 0 ? n : 0;
    }

    /**
     * Memories that matched but wait for review under the strict gate: said once (status
     * and a pop-up), not on every turn; said again only after none was held for a while.
     */
    function noteHeld(chatId, held) {
        if (held === 0) { heldAnnounced.delete(chatId); return; }
        if (heldAnnounced.has(chatId)) return;
        heldAnnounced.add(chatId);
        const message = tn(held, '{n} memory held for review — approve it in BME Desktop',
            '{n} memories held for review — approve them in BME Desktop');
        status.set({ message });
        notices.info(message);
    }

    // ----- getting ready while the user types ---------------------------------

    const PREPARE_MIN_CHARS = 3;
    let typingTimer = null;
    let lastPrepared = '';

    /**
     * The send box changed. Once typing pauses (the sync debounce), the bridge is
     * asked to embed the draft ahead of time (POST /recall/prepare), so the recall
     * before generation only ranks. Best effort: failures are only logged.
     */
    function onTyping(text) {
        if (typingTimer !== null) timers.clearTimeout(typingTimer);
        if (disposed) return;
        typingTimer = timers.setTimeout(() => {
            typingTimer = null;
            prepareDraft(String(text ?? '')).catch(() => {});
        }, settings().debounceMs);
    }

    async function prepareDraft(text) {
        const s = settings();
        const draft = text.trim();
        if (disposed || !s.enabled || draft.length < PREPARE_MIN_CHARS || draft === lastPrepared) return;
        if (isSlashCommand(draft) || status.get().state === 'offline') return;
        const ctx = getContext();
        const chatId = currentChatId(ctx);
        if (!chatId) return;
        lastPrepared = draft;
        const index = Array.isArray(ctx.chat) ? ctx.chat.length : undefined;
        try {
            await client.prepareRecall(chatId, index === undefined ? { user_input: draft } : { user_input: draft, index },
                { timeoutMs: s.timeoutMs });
        } catch (err) {
            logger.debug?.(`${LOG_PREFIX} prepare failed (the recall will embed the input itself):`, err);
        }
    }

    // ----- reconnecting -------------------------------------------------------

    function startReconnect() {
        if (reconnectTimer !== null || !reconnectMs || disposed) return;
        reconnectTimer = timers.setTimeout(async () => {
            reconnectTimer = null;
            if (disposed || !settings().enabled) return;
            try {
                await client.health({ timeoutMs: settings().timeoutMs });
                noteSuccess({ message: t('bridge is back') });
                sync.schedule({ complete: true });
                events.watch(currentChatId());
            } catch {
                startReconnect();
            }
        }, reconnectMs);
    }

    function stopReconnect() {
        if (reconnectTimer !== null) { timers.clearTimeout(reconnectTimer); reconnectTimer = null; }
    }

    // ----- public API -----------------------------------------------------------

    /** GET /v1/health, then an authenticated GET /v1/chats. Never throws. */
    async function testConnection() {
        const s = settings();
        let health;
        try {
            health = await client.health({ timeoutMs: s.timeoutMs });
        } catch (err) {
            noteFailure(err);
            return { ok: false, step: 'health', kind: err.kind, message: statusForError(err).message };
        }
        if (Number(health?.protocol) !== 1) {
            const message = t('the bridge speaks protocol {protocol}; this extension needs protocol 1', { protocol: health?.protocol });
            status.set({ state: 'error', message });
            return { ok: false, step: 'health', kind: 'protocol', message };
        }
        let chats;
        try {
            chats = await client.listChats({ timeoutMs: s.timeoutMs });
        } catch (err) {
            noteFailure(err);
            return { ok: false, step: 'auth', kind: err.kind, message: statusForError(err).message };
        }
        const list = Array.isArray(chats) ? chats : (Array.isArray(chats?.chats) ? chats.chats : []);
        const message = tn(list.length, 'BME Desktop {version} · {n} chat in memory', 'BME Desktop {version} · {n} chats in memory',
            { version: health.version ?? '' }).replace('  ', ' ');
        noteSuccess({ state: 'connected', message });
        if (s.enabled && currentChatId()) sync.schedule({ complete: true });
        events.watch(currentChatId());
        return { ok: true, version: health.version, chats: list.length, message };
    }

    /** Bind to SillyTavern's events. Idempotent. */
    function bind() {
        if (bound.length) return;
        const ctx = getContext();
        const source = ctx.eventSource;
        const types = ctx.eventTypes ?? ctx.event_types ?? {};
        if (!source) throw new Error('SillyTavern eventSource is missing');
        const on = (key, fn, first = false) => {
            const name = types[key];
            if (!name) { logger.warn?.(`${LOG_PREFIX} this SillyTavern has no ${key} event`); return; }
            const handler = guard(key, fn);
            if (first && typeof source.makeFirst === 'function') source.makeFirst(name, handler);
            else source.on(name, handler);
            bound.push([name, handler]);
        };
        on('CHAT_CHANGED', onChatChanged);
        on('MESSAGE_SENT', onNewMessage);
        on('MESSAGE_RECEIVED', onNewMessage);
        on('MESSAGE_EDITED', onHistoryChanged);
        on('MESSAGE_DELETED', onHistoryChanged);
        on('MESSAGE_SWIPED', onHistoryChanged);
        on('GENERATION_AFTER_COMMANDS', onBeforeGeneration, true);
        // memory jobs wait while SillyTavern generates anything of its own
        on('GENERATION_STARTED', jobs.onGenerationStarted);
        on('GENERATION_ENDED', jobs.onGenerationEnded);
        on('GENERATION_STOPPED', jobs.onGenerationEnded);
        // a lorebook edited, or books switched on or off: send the chat's entries again
        const lorebookChanged = () => { if (settings().enabled) lorebook.schedule(); };
        for (const key of ['WORLDINFO_UPDATED', 'WORLDINFO_SETTINGS_UPDATED']) {
            if (types[key]) on(key, lorebookChanged);
        }
        if (!settings().enabled) status.set({ state: 'disabled', message: t('memory is switched off') });
    }

    function dispose() {
        disposed = true;
        const ctx = getContext();
        for (const [name, handler] of bound.splice(0)) {
            try { ctx.eventSource?.removeListener?.(name, handler); } catch { /* ignore */ }
        }
        sync.cancel();
        lorebook.cancel();
        if (typingTimer !== null) { timers.clearTimeout(typingTimer); typingTimer = null; }
        stopReconnect();
        events.close();
        jobs.dispose();
        notices.dispose();
    }

    /** Call after the user changed settings in the panel. */
    function settingsChanged({ connectionChanged = false } = {}) {
        const s = settings();
        saveSettings();
        if (!s.enabled) {
            clearPrompt();
            sync.cancel();
            events.close();
            stopReconnect();
            status.set({ state: 'disabled', message: t('memory is switched off') });
            return;
        }
        if (status.get().state === 'disabled') status.set({ state: 'idle', message: t('not connected yet') });
        if (connectionChanged) {
            events.close();
            if (currentChatId()) sync.schedule({ complete: true });
            events.watch(currentChatId());
        } else {
            jobs.offer(); // the lending switch or budget may have changed (no-op without a socket)
        }
    }

    function recallApi(method) {
        return async (index, ...rest) => {
            const chatId = currentChatId();
            if (!chatId) throw new Error(t('no chat is open'));
            try {
                const out = await client[method](chatId, index, ...rest, { timeoutMs: settings().timeoutMs });
                noteSuccess();
                return out;
            } catch (err) {
                if (err?.kind !== 'not_found') noteFailure(err);
                throw err;
            }
        };
    }

    return {
        bind,
        dispose,
        settings,
        saveSettings,
        settingsChanged,
        status,
        client,
        testConnection,
        currentChatId,
        /** Resolves when no sync is pending or running. */
        syncIdle: async () => { await sync.idle(); await lorebook.idle(); },
        syncNow: () => { sync.schedule({ complete: true }); return sync.flush(); },
        onRecall(fn) { recallListeners.add(fn); return () => recallListeners.delete(fn); },
        /** Lending SillyTavern's model: `state()` now, `onChange(fn)` on every change. */
        modelJobs: {
            state: () => jobs.state(),
            pending: () => jobs.pending(),
            onChange(fn) { modelListeners.add(fn); return () => modelListeners.delete(fn); },
        },
        getRecall: recallApi('getRecall'),
        putRecall: recallApi('putRecall'),
        deleteRecall: recallApi('deleteRecall'),
        // exposed for tests and for the UI
        handlers: { onChatChanged, onNewMessage, onHistoryChanged, onBeforeGeneration, onTyping },
        clearPrompt,
    };
}
