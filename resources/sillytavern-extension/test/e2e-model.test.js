// End-to-end: SillyTavern's model does BME Desktop's memory jobs, against a real
// `bme-desktop serve` (default settings but a budget of 120 jobs a minute, as the runs here
// are quicker than any chat) over a real WebSocket, with SillyTavern's
// generateRaw faked. Skipped unless BME_E2E_MODEL_URL and BME_E2E_TOKEN are set and this
// Node has a WebSocket (Node 22, or Node 20 with --experimental-websocket).

import { test, after, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { e2eConfig, setup, stMessage } from './helpers.js';
import { bridgeClient, deleteChats } from './story.js';
import { chatPath } from '../lib/client.js';

const config = e2eConfig(process.env, 'BME_E2E_MODEL_URL');
const e2e = !config.skip && typeof globalThis.WebSocket !== 'function'
    ? { skip: 'this Node has no WebSocket: use Node 22, or Node 20 with --experimental-websocket' } : config;
const client = bridgeClient(e2e);
const stamp = Date.now();
const chats = { good: `bme-e2e model ${stamp}`, busy: `bme-e2e model busy ${stamp}`, broken: `bme-e2e model broken ${stamp}`, dropped: `bme-e2e model dropped ${stamp}` };
const MODEL_NAME = 'e2e-model';
const LABEL = `SillyTavern's model (${MODEL_NAME})`;
const PLACE = 'Crooked Lantern';
const EXTRACTION = JSON.stringify({ operations: [{ action: 'create', type: 'location', ref: 'n1', fields: { name: PLACE }, source: [2] }] });

after(() => deleteChats(client, Object.values(chats)));
/** Sockets and extensions of the test that just ran: closed even when it failed (an open socket keeps Node alive). */
const cleanups = [];
afterEach(() => { for (const fn of cleanups.splice(0)) { try { fn(); } catch { /* closed already */ } } });

/** The bridge's events for one chat, on a socket of the test's own. */
async function listen(chatId) {
    const url = `${e2e.url.replace(/^http/, 'ws')}/v1/events?chat_id=${encodeURIComponent(chatId)}`;
    const ws = new WebSocket(url);
    const seen = [];
    const waiters = [];
    ws.onmessage = (message) => {
        const event = JSON.parse(String(message.data));
        seen.push(event);
        for (const w of [...waiters]) if (w.match(event)) { waiters.splice(waiters.indexOf(w), 1); w.resolve(event); }
    };
    await new Promise((resolve, reject) => { ws.onopen = resolve; ws.onerror = reject; });
    ws.send(JSON.stringify({ token: e2e.token }));
    const next = (match) => {
        const found = seen.find(match);
        if (found) { seen.splice(seen.indexOf(found), 1); return Promise.resolve(found); }
        return new Promise((resolve) => waiters.push({ match, resolve }));
    };
    cleanups.push(() => ws.close());
    await next((e) => e.type === 'hello');
    return { next, close: () => ws.close() };
}

/**
 * A SillyTavern with only the greeting in `chatId`, its model lent to the real bridge
 * (`generate` stands for generateRaw). Resolves once the bridge has accepted the offer.
 */
async function lendingTavern(chatId, generate) {
    const calls = [];
    async function generateRaw({ prompt = '', responseLength = null } = {}) {
        calls.push({ prompt, responseLength });
        return generate(prompt);
    }
    const { st, bme } = setup({
        bridgeUrl: e2e.url,
        token: e2e.token,
        settings: { timeoutMs: 10000 },
        stOptions: { chatId, chat: [stMessage('Mira', 'Welcome, traveller. The storm has closed the pass.')] },
        coreOptions: { WebSocket: globalThis.WebSocket, generateRaw: () => generateRaw },
    });
    st.onlineStatus = MODEL_NAME;
    cleanups.push(() => bme.dispose());
    const accepted = new Promise((resolve) => {
        const stop = bme.modelJobs.onChange((state) => { if (state.inUse) { stop(); resolve(); } });
    });
    await st.emit('CHAT_CHANGED', chatId);
    await bme.syncIdle();
    await accepted;
    return { st, bme, calls };
}

/** The user's turn: the place is named, the reply arrives, the extension syncs it. */
async function turn(st, bme) {
    st.chat.push(stMessage('Alex', `Let us wait out the storm at the ${PLACE}.`, { user: true }));
    await st.emit('MESSAGE_SENT', st.chat.length - 1);
    st.chat.push(stMessage('Mira', `The ${PLACE} it is; the innkeeper owes me a favour.`));
    await st.emit('MESSAGE_RECEIVED', st.chat.length - 1);
    await bme.syncIdle();
}

const ofTurn = (e) => e.type === 'extraction.finished' && e.to === 2;

test('e2e: without a model endpoint set, SillyTavern\'s model extracts the chat and the batch names it', { skip: e2e.skip }, async () => {
    const events = await listen(chats.good);
    const { st, bme, calls } = await lendingTavern(chats.good, () => EXTRACTION);
    await turn(st, bme);
    const finished = await events.next(ofTurn);
    assert.equal(finished.extractor, 'llm');
    assert.equal(finished.model, LABEL);
    assert.ok(calls.length >= 1 && Array.isArray(calls[0].prompt), 'the job ran through generateRaw with chat messages');
    assert.equal(st.chat.length, 3, 'no job output entered the chat');
    const nodes = await client.request('GET', `${chatPath(chats.good, 'nodes')}?type=location`, { timeoutMs: 10000 });
    assert.ok(nodes.items.some((n) => n.fields?.name === PLACE), JSON.stringify(nodes.items));
    bme.dispose();
    events.close();
});

test('e2e: a job that arrives while SillyTavern generates waits until the generation ends', { skip: e2e.skip }, async () => {
    const events = await listen(chats.busy);
    let markRan;
    const ran = new Promise((resolve) => { markRan = resolve; });
    let generating = false;
    const { st, bme } = await lendingTavern(chats.busy, (prompt) => {
        if (JSON.stringify(prompt).includes(PLACE)) markRan(generating); // the turn's job
        return EXTRACTION;
    });
    const waiting = new Promise((resolve) => {
        const stop = bme.modelJobs.onChange((state) => { if (state.waiting > 0) { stop(); resolve(); } });
    });
    await st.emit('GENERATION_STARTED', undefined, {}, false); // e.g. an impersonation is under way
    generating = true;
    await turn(st, bme);
    await waiting; // the job arrived while SillyTavern generated, and waits
    generating = false;
    await st.emit('GENERATION_ENDED', st.chat.length);
    assert.equal(await ran, false, 'the job ran only after the generation ended');
    const finished = await events.next(ofTurn);
    assert.equal(finished.model, LABEL);
    bme.dispose();
    events.close();
});

test('e2e: broken JSON from SillyTavern\'s model falls back to the rules, and the batch says so', { skip: e2e.skip }, async () => {
    const events = await listen(chats.broken);
    const { st, bme, calls } = await lendingTavern(chats.broken, () => 'I would rather not answer that.');
    await turn(st, bme);
    const finished = await events.next(ofTurn);
    assert.equal(finished.extractor, 'heuristic');
    assert.match(finished.note, /fallback: SillyTavern's model \(e2e-model\) failed/);
    assert.ok(calls.length >= 2, 'one repair was asked for');
    bme.dispose();
    events.close();
});

test('e2e: when the socket drops mid-job, the batch falls back to the rules at once', { skip: e2e.skip }, async () => {
    const events = await listen(chats.dropped);
    let started;
    const jobStarted = new Promise((resolve) => { started = resolve; });
    const { st, bme } = await lendingTavern(chats.dropped, (prompt) => {
        if (!JSON.stringify(prompt).includes(PLACE)) return EXTRACTION;
        started();
        return new Promise(() => {}); // the turn's job never answers
    });
    await turn(st, bme);
    await jobStarted;
    bme.dispose(); // the page goes away: its socket closes mid-job
    const finished = await events.next(ofTurn);
    assert.equal(finished.extractor, 'heuristic');
    assert.match(finished.note, /went away mid-job/);
    events.close();
});
