// Lending SillyTavern's connection to BME Desktop for its memory jobs (extraction,
// summaries, reflection, persona…): "only tick Enable" and the memory uses the chat's
// own model. Protocol (docs/bridge.md, "Model jobs"), all on the events socket:
//   → {type: 'model.offer', enabled, model, purposes}      when the socket opens, and on each settings change
//   ← {type: 'model.offer.accepted', in_use, reason, …}    whether the app uses it (its own endpoint wins)
//   ← {type: 'model.job', job_id, purpose, messages, max_tokens, timeout_ms}
//   → {type: 'model.result', job_id, text} | {type: 'model.error', job_id, code, message}
//   ← {type: 'model.cancel', job_id}                      the bridge gave up on it
// A job runs as a raw generation (SillyTavern's generateRaw: not in the chat, no chat
// events), one at a time, and never while SillyTavern generates anything else: it waits
// for that generation to end, or answers `busy` once its time is up. Budgets: jobs per
// minute, prompt tokens per job, reply tokens per job. Whatever fails, the bridge takes
// its offline path for that batch and the batch says so.

import { LOG_PREFIX } from './constants.js';
import { t } from './i18n.js';

export const MAX_BYTES = 60000; // one socket message must hold the reply (the bridge reads at most 64 KiB)
export const BUSY_CHECK_MS = 2000; // while a job waits for the user's generation, look again this often
export const STALE_BUSY_MS = 10 * 60 * 1000; // a generation never said it ended: stop waiting on it after this
const MARGIN_MS = 1000; // answer before the bridge's own deadline
export const PURPOSES = Object.freeze(['extract', 'summarize', 'compress', 'fold', 'consolidate', 'persona', 'reflect']);

/** A rough token count: CJK characters one each, other text four characters a token. */
export function estimateTokens(text) {
    const s = String(text ?? '');
    const cjk = (s.match(/[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff\uac00-\ud7af]/g) ?? []).length;
    return cjk + Math.ceil((s.length - cjk) / 4);
}

/**
 * Call SillyTavern's `generateRaw` in the form it has: newer versions take one object
 * (`generateRaw.length === 0`) and accept chat-style messages; 1.12.x takes positional
 * arguments (prompt, api, instructOverride, quietToLoud, systemPrompt, responseLength).
 * There the reply length is not passed: 1.12.x would lend it to a user generation that
 * starts meanwhile.
 */
export async function runRaw(generateRaw, messages, maxTokens) {
    if (generateRaw.length === 0) {
        return generateRaw({ prompt: messages.map((m) => ({ role: m.role, content: m.content })), responseLength: maxTokens });
    }
    const system = messages.filter((m) => m.role === 'system').map((m) => m.content).join('\n\n');
    const prompt = messages.filter((m) => m.role !== 'system').map((m) => m.content).join('\n\n');
    return generateRaw(prompt, null, false, false, system);
}

function validJob(message) {
    if (typeof message?.job_id !== 'string' || !message.job_id) return false;
    if (!Array.isArray(message.messages) || message.messages.length === 0) return false;
    return message.messages.every((m) => m && typeof m.role === 'string' && typeof m.content === 'string');
}

/**
 * @param {object} deps
 * @param {() => object} deps.getContext
 * @param {() => object} deps.settings       the extension's settings (lendModel, lendJobsPerMinute, …)
 * @param {() => Function|null} deps.generateRaw  SillyTavern's generateRaw, or null where there is none
 * @param {() => boolean} [deps.isGenerating]  SillyTavern shows its stop button (a generation runs)
 * @param {(message: object) => boolean} deps.send  a message to the bridge on the events socket
 * @param {{setTimeout: Function, clearTimeout: Function}} deps.timers
 * @param {object} deps.logger
 * @param {() => number} [deps.now]
 * @param {(state: object) => void} [deps.onChange]  the lending state changed (for the settings panel)
 */
export function createModelJobs(deps) {
    const { getContext, settings, generateRaw, isGenerating = () => false, send, timers, logger, now = () => Date.now(), onChange = () => {} } = deps;
    const queue = []; // jobs waiting: {id, purpose, messages, maxTokens, deadline, timer}
    let running = null; // the job being generated: {id, abandoned}
    let busySince = null; // SillyTavern started a generation of its own (events); null: none seen
    let busyTimer = null;
    const started = []; // when the recent jobs started (the per-minute budget)
    const state = { offered: false, inUse: false, reason: '', done: 0, failed: 0, last: '', waiting: 0 };

    function changed(patch) {
        Object.assign(state, patch);
        try { onChange({ ...state }); } catch { /* the panel's problem */ }
    }

    function modelName() {
        try {
            const status = getContext().onlineStatus;
            return typeof status === 'string' && status && status !== 'no_connection' ? status : '';
        } catch { return ''; }
    }

    function lendable() {
        const s = settings();
        return Boolean(s.enabled && s.lendModel && typeof generateRaw() === 'function');
    }

    /** Tell the bridge whether SillyTavern's connection can take memory jobs (on open and on change). */
    function offer() {
        const enabled = lendable();
        const sent = send({ type: 'model.offer', enabled, model: modelName(), purposes: [...PURPOSES] });
        if (!sent) return false;
        changed({ offered: enabled, inUse: enabled ? state.inUse : false });
        if (!enabled) abandonAll('disabled', t('lending the model is switched off'));
        return true;
    }

    function userBusy() {
        if (busySince !== null && now() - busySince > STALE_BUSY_MS) busySince = null;
        let shown = false;
        try { shown = Boolean(isGenerating()); } catch { shown = false; }
        return busySince !== null || shown;
    }

    // ----- SillyTavern's generations ----------------------------------------------------
    function onGenerationStarted(type, options, dryRun) {
        if (dryRun === true) return; // token counting only
        busySince = now();
    }

    function onGenerationEnded() {
        busySince = null;
        pump();
    }

    // ----- messages from the bridge ---------------------------------------------------
    function handle(message) {
        if (message?.type === 'model.offer.accepted') {
            changed({ inUse: Boolean(message.in_use), reason: typeof message.reason === 'string' ? message.reason : '' });
            return true;
        }
        if (message?.type === 'model.cancel') {
            cancel(message.job_id);
            return true;
        }
        if (message?.type !== 'model.job') return false;
        if (!validJob(message)) {
            if (typeof message?.job_id === 'string') fail(message.job_id, 'bad_job', t('the job has no messages'));
            return true;
        }
        const s = settings();
        if (!lendable()) { fail(message.job_id, 'disabled', t('lending the model is switched off')); return true; }
        const promptTokens = message.messages.reduce((sum, m) => sum + estimateTokens(m.content), 0);
        if (promptTokens > s.lendMaxPromptTokens) {
            fail(message.job_id, 'too_large', t('the job needs ~{n} prompt tokens; the limit is {limit}', { n: promptTokens, limit: s.lendMaxPromptTokens }));
            return true;
        }
        const timeoutMs = Math.max(1000, Number(message.timeout_ms) || 120000) - MARGIN_MS;
        const job = {
            id: message.job_id,
            purpose: typeof message.purpose === 'string' ? message.purpose : '',
            messages: message.messages,
            maxTokens: Math.min(s.lendMaxTokens, Math.max(16, Number(message.max_tokens) || s.lendMaxTokens)),
            deadline: now() + timeoutMs,
            timer: null,
        };
        job.timer = timers.setTimeout(() => expire(job), timeoutMs);
        queue.push(job);
        pump();
        if (queue.length !== state.waiting) changed({ waiting: queue.length });
        return true;
    }

    function expire(job) {
        const at = queue.indexOf(job);
        if (at >= 0) {
            queue.splice(at, 1);
            changed({ waiting: queue.length });
            fail(job.id, 'busy', t('SillyTavern was generating until the job ran out of time'));
            return;
        }
        if (running?.id === job.id && !running.abandoned) {
            running.abandoned = true;
            fail(job.id, 'timeout', t('the model did not answer in time'));
        }
    }

    function cancel(jobId) {
        const at = queue.findIndex((j) => j.id === jobId);
        if (at >= 0) {
            timers.clearTimeout(queue[at].timer);
            queue.splice(at, 1);
            changed({ waiting: queue.length });
        }
        if (running?.id === jobId) running.abandoned = true; // its late answer is dropped
    }

    /** The socket went away or lending was switched off: nothing waiting is run. */
    function abandonAll(code, why) {
        for (const job of queue.splice(0)) {
            timers.clearTimeout(job.timer);
            if (code) fail(job.id, code, why);
        }
        if (running) {
            running.abandoned = true; // its late answer is dropped
            timers.clearTimeout(running.timer);
        }
        if (state.waiting) changed({ waiting: 0 });
    }

    function fail(jobId, code, message) {
        send({ type: 'model.error', job_id: jobId, code, message: String(message ?? '').slice(0, 300) });
        changed({ failed: state.failed + 1, last: `${code}: ${message}` });
    }

    // ----- running ----------------------------------------------------------------------
    function pump() {
        if (running || queue.length === 0) return;
        if (userBusy()) {
            // GENERATION_ENDED wakes us; look again now and then in case it never comes
            if (busyTimer === null) busyTimer = timers.setTimeout(() => { busyTimer = null; pump(); }, BUSY_CHECK_MS);
            return;
        }
        const s = settings();
        const job = queue.shift();
        changed({ waiting: queue.length });
        while (started.length && now() - started[0] >= 60000) started.shift();
        if (started.length >= s.lendJobsPerMinute) {
            timers.clearTimeout(job.timer);
            fail(job.id, 'budget', t('more than {n} jobs a minute', { n: s.lendJobsPerMinute }));
            pump();
            return;
        }
        started.push(now());
        run(job).finally(() => { running = null; pump(); });
    }

    async function run(job) {
        running = { id: job.id, abandoned: false, timer: job.timer };
        const mine = running;
        const generate = generateRaw();
        let text;
        try {
            if (typeof generate !== 'function') throw new Error(t('this SillyTavern has no raw generation'));
            text = await runRaw(generate, job.messages, job.maxTokens);
        } catch (err) {
            timers.clearTimeout(job.timer);
            if (!mine.abandoned) fail(job.id, 'failed', err?.message ?? String(err));
            return;
        }
        timers.clearTimeout(job.timer);
        if (mine.abandoned) return;
        if (typeof text !== 'string' || !text.trim()) { fail(job.id, 'empty', t('the model returned no text')); return; }
        const result = { type: 'model.result', job_id: job.id, text };
        if (new TextEncoder().encode(JSON.stringify(result)).length > MAX_BYTES) {
            fail(job.id, 'too_long', t('the reply is longer than {n} bytes', { n: MAX_BYTES }));
            return;
        }
        if (send(result)) {
            changed({ done: state.done + 1, last: job.purpose });
        } else {
            logger.warn?.(`${LOG_PREFIX} the events socket closed before the ${job.purpose} job's answer could be sent`);
        }
    }

    return {
        offer,
        handle,
        onGenerationStarted,
        onGenerationEnded,
        /** The socket closed: the bridge has failed our jobs already; drop them here too. */
        onSocketClosed() { abandonAll(null); changed({ offered: false, inUse: false }); },
        state: () => ({ ...state }),
        pending: () => queue.length + (running ? 1 : 0),
        dispose() {
            abandonAll(null);
            if (busyTimer !== null) { timers.clearTimeout(busyTimer); busyTimer = null; }
        },
    };
}
