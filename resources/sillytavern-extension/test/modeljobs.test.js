// Lending SillyTavern's model to BME Desktop: offers, jobs through generateRaw, waiting for
// SillyTavern's own generations, budgets, timeouts and dropped sockets (lib/modeljobs.js).
// A fake socket stands for /v1/events; timers run only when the test says so.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createBme } from '../lib/core.js';
import { BUSY_CHECK_MS, estimateTokens, runRaw } from '../lib/modeljobs.js';
import { createFakeSillyTavern, manualTimers, recordingLogger } from './helpers.js';

const TOKEN = 'test-token-0123456789abcdef0123456789abcdef';
const MESSAGES = [{ role: 'system', content: 'Extract memories as JSON.' }, { role: 'user', content: 'Mira opened the gate.' }];
const REPLY = '{"operations": []}';
const flush = () => new Promise((resolve) => setImmediate(resolve));

class FakeSocket {
    static all = [];
    constructor(url) { this.url = url; this.sent = []; FakeSocket.all.push(this); }
    send(data) { if (this.closed) throw new Error('closed'); this.sent.push(JSON.parse(data)); }
    close() { this.closed = true; this.onclose?.(); }
    push(message) { this.onmessage?.({ data: JSON.stringify(message) }); }
    /** The bridge accepted the token and said hello. */
    hello() { this.onopen?.(); this.push({ type: 'hello', protocol: 1, chat_id: null, filter: null }); }
    of(type) { return this.sent.filter((m) => m.type === type); }
}

/** A fake SillyTavern whose generateRaw is `generate`, and a BME core bound to it. */
function lending({ generate, settings = {}, generating = () => false } = {}) {
    FakeSocket.all.length = 0;
    const timers = manualTimers();
    const st = createFakeSillyTavern({ settings: { bridgeUrl: 'http://127.0.0.1:9', token: TOKEN, ...settings } });
    const calls = [];
    // newer SillyTavern's shape: one destructured object with defaults (so generateRaw.length === 0)
    const generateRaw = generate ?? (async function generateRaw({ prompt = '', responseLength = null } = {}) {
        calls.push({ prompt, responseLength });
        return REPLY;
    });
    const bme = createBme({
        getContext: () => ({ ...st.getContext(), onlineStatus: 'gpt-4o-mini' }),
        fetch: async () => { throw new Error('no bridge in this test'); },
        logger: recordingLogger(),
        reconnectMs: 0,
        WebSocket: FakeSocket,
        timers,
        generateRaw: () => generateRaw,
        isGenerating: generating,
    });
    bme.bind();
    bme.handlers.onChatChanged(); // opens the events socket for the chat
    const [socket] = FakeSocket.all;
    socket.hello();
    return { st, bme, socket, timers, calls };
}

function job(id, extra = {}) {
    return { type: 'model.job', chat_id: null, job_id: id, purpose: 'extract', messages: MESSAGES, max_tokens: 1024, timeout_ms: 30000, ...extra };
}

test('once the bridge says hello, the extension offers SillyTavern\'s connection with its model name', () => {
    const { socket, bme } = lending();
    const [offer] = socket.of('model.offer');
    assert.equal(offer.enabled, true);
    assert.equal(offer.model, 'gpt-4o-mini');
    assert.ok(!offer.purposes.includes('rerank'), 'rerank runs inside the user\'s generation: never lent');
    socket.push({ type: 'model.offer.accepted', chat_id: null, in_use: true, reason: '' });
    assert.equal(bme.modelJobs.state().inUse, true);
    bme.dispose();
});

test('a job runs as one raw generation and its text goes back; the chat and the prompt are untouched', async () => {
    const { st, socket, calls, bme } = lending({ settings: { lendMaxTokens: 512 } });
    const chatBefore = JSON.stringify(st.chat);
    socket.push(job('j1'));
    await flush();
    assert.deepEqual(calls, [{ prompt: MESSAGES, responseLength: 512 }]);
    assert.deepEqual(socket.of('model.result'), [{ type: 'model.result', job_id: 'j1', text: REPLY }]);
    assert.equal(JSON.stringify(st.chat), chatBefore);
    assert.equal(st.promptCalls.length, 1, 'only the chat change cleared the memory prompt'); // no job output in the prompt
    assert.equal(bme.modelJobs.state().done, 1);
    bme.dispose();
});

test('SillyTavern 1.12 (positional generateRaw) gets the prompt and the system prompt, not a reply length', async () => {
    const seen = [];
    async function old(prompt, api, instructOverride, quietToLoud, systemPrompt, responseLength) {
        seen.push([prompt, api, instructOverride, quietToLoud, systemPrompt, responseLength]);
        return REPLY;
    }
    assert.equal(await runRaw(old, MESSAGES, 256), REPLY);
    assert.deepEqual(seen, [['Mira opened the gate.', null, false, false, 'Extract memories as JSON.', undefined]]);
});

test('a job that arrives while SillyTavern generates waits for the generation to end, then runs', async () => {
    const { st, socket, calls, bme } = lending();
    await st.emit('GENERATION_STARTED', undefined, {}, false);
    socket.push(job('j1'));
    await flush();
    assert.equal(calls.length, 0, 'nothing runs during the user\'s generation');
    await st.emit('GENERATION_ENDED', 7);
    await flush();
    assert.equal(calls.length, 1);
    assert.equal(socket.of('model.result').length, 1);
    bme.dispose();
});

test('a dry run (token counting) does not hold jobs back', async () => {
    const { st, socket, calls, bme } = lending();
    await st.emit('GENERATION_STARTED', 'normal', {}, true);
    socket.push(job('j1'));
    await flush();
    assert.equal(calls.length, 1);
    bme.dispose();
});

test('while the stop button shows, a job waits and the extension looks again later', async () => {
    let generating = true;
    const { socket, calls, timers, bme } = lending({ generating: () => generating });
    socket.push(job('j1'));
    assert.equal(calls.length, 0);
    generating = false;
    await timers.run(BUSY_CHECK_MS);
    await flush();
    assert.equal(calls.length, 1);
    bme.dispose();
});

test('a job still waiting for SillyTavern when its time is up is answered "busy" and never run', async () => {
    const { st, socket, calls, timers, bme } = lending();
    await st.emit('GENERATION_STARTED', undefined, {}, false);
    socket.push(job('j1', { timeout_ms: 5000 }));
    await timers.run(4000); // the job's deadline, a second before the bridge's
    await st.emit('GENERATION_ENDED', 7);
    await flush();
    assert.equal(calls.length, 0);
    assert.deepEqual(socket.of('model.error').map((m) => [m.job_id, m.code]), [['j1', 'busy']]);
    bme.dispose();
});

test('a generation that times out mid-job is answered "timeout"; its late text is dropped', async () => {
    let finish;
    const { socket, timers, bme } = lending({ generate: async function generateRaw() { return new Promise((r) => { finish = r; }); } });
    socket.push(job('j1', { timeout_ms: 5000 }));
    await timers.run(4000);
    assert.deepEqual(socket.of('model.error').map((m) => m.code), ['timeout']);
    finish(REPLY);
    await flush();
    assert.equal(socket.of('model.result').length, 0);
    bme.dispose();
});

test('jobs over the per-minute budget are refused at once (the bridge takes its offline path)', async () => {
    const { socket, calls, bme } = lending({ settings: { lendJobsPerMinute: 1 } });
    socket.push(job('j1'));
    await flush();
    socket.push(job('j2'));
    await flush();
    assert.equal(calls.length, 1);
    assert.deepEqual(socket.of('model.error').map((m) => [m.job_id, m.code]), [['j2', 'budget']]);
    bme.dispose();
});

test('a job whose prompt is over the token limit is refused', async () => {
    const { socket, calls, bme } = lending({ settings: { lendMaxPromptTokens: 500 } });
    socket.push(job('big', { messages: [{ role: 'user', content: '记'.repeat(600) }] }));
    await flush();
    assert.equal(calls.length, 0);
    assert.equal(socket.of('model.error')[0].code, 'too_large');
    assert.equal(estimateTokens('记忆 memory'), 2 + 2);
    bme.dispose();
});

test('with lending switched off the offer is withdrawn and jobs are refused', async () => {
    const { socket, calls, bme } = lending();
    bme.settings().lendModel = false;
    bme.settingsChanged();
    assert.equal(socket.of('model.offer').at(-1).enabled, false);
    socket.push(job('j1'));
    await flush();
    assert.equal(calls.length, 0);
    assert.equal(socket.of('model.error')[0].code, 'disabled');
    bme.dispose();
});

test('broken jobs and failed generations are answered with an error, never with text', async () => {
    const { socket, bme } = lending({ generate: async function generateRaw() { throw new Error('502 from the API'); } });
    socket.push({ type: 'model.job', job_id: 'j0', messages: 'not a list' });
    socket.push(job('j1'));
    await flush();
    assert.deepEqual(socket.of('model.error').map((m) => [m.job_id, m.code]), [['j0', 'bad_job'], ['j1', 'failed']]);
    assert.equal(socket.of('model.result').length, 0);
    bme.dispose();
});

test('a reply too large for one socket message (in UTF-8 bytes) is an error, not a cut result', async () => {
    const { socket, bme } = lending({ generate: async function generateRaw() { return '记'.repeat(25000); } }); // 75 KB
    socket.push(job('j1'));
    await flush();
    assert.equal(socket.of('model.error')[0].code, 'too_long');
    assert.equal(socket.of('model.result').length, 0);
    bme.dispose();
});

test('an empty reply is an error, not a result', async () => {
    const { socket, bme } = lending({ generate: async function generateRaw() { return '   '; } });
    socket.push(job('j1'));
    await flush();
    assert.equal(socket.of('model.error')[0].code, 'empty');
    bme.dispose();
});

test('a job the bridge cancels while it waits is never run', async () => {
    const { st, socket, calls, bme } = lending();
    await st.emit('GENERATION_STARTED', undefined, {}, false);
    socket.push(job('j1'));
    socket.push({ type: 'model.cancel', chat_id: null, job_id: 'j1' });
    await st.emit('GENERATION_ENDED', 7);
    await flush();
    assert.equal(calls.length, 0);
    bme.dispose();
});

test('when the socket drops mid-job the answer is not sent; the next socket offers again', async () => {
    let finish;
    const { socket, bme } = lending({ generate: async function generateRaw() { return new Promise((r) => { finish = r; }); } });
    socket.push(job('j1'));
    socket.close();
    finish(REPLY);
    await flush();
    assert.equal(socket.of('model.result').length, 0);
    assert.equal(bme.modelJobs.state().offered, false);
    bme.dispose();
});
