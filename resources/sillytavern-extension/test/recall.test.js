// The awaited pre-generation hook: POST /recall → setExtensionPrompt.

import { test, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { startFakeBridge, setup, stMessage, createFakeSillyTavern, recordingLogger, deadUrl } from './helpers.js';
import { createBme, KEPT_RECALL_TIMEOUT_MS } from '../lib/core.js';
import { badgeText } from '../lib/status.js';

let bridge;
before(async () => { bridge = await startFakeBridge(); });
after(async () => { await bridge.close(); });
beforeEach(() => { bridge.requests.length = 0; bridge.handler = null; bridge.kept.clear(); });

function connect(opts = {}) {
    return setup({ bridgeUrl: bridge.url, token: bridge.token, ...opts });
}

/** What SillyTavern's Generate() does around our hook, in order. */
async function generate(st, type = undefined, options = {}, dryRun = false) {
    await st.emit('GENERATION_STARTED', type, options, dryRun);
    await st.emit('GENERATION_AFTER_COMMANDS', type, options, dryRun);
}

test('the recall hook runs before listeners registered earlier (makeFirst)', async () => {
    const st = createFakeSillyTavern({ settings: { bridgeUrl: bridge.url, token: bridge.token, debounceMs: 5 } });
    const order = [];
    st.eventSource.on('GENERATION_AFTER_COMMANDS', () => { order.push(`other saw ${st.promptValue() ?? 'nothing'}`); });
    const bme = createBme({ getContext: st.getContext, readPendingInput: () => 'Hello', logger: recordingLogger(), reconnectMs: 0, WebSocket: null });
    bme.bind();
    await generate(st);
    assert.deepEqual(order, [`other saw ${bridge.recallAnswer.injection}`]);
});

test('a normal send recalls with the pending text and applies the injection in chat at the configured depth', async () => {
    const { st } = connect({ settings: { position: 'in_chat', depth: 7, topK: 5, budgetTokens: 900 } });
    st.pendingInput = 'What happened to me?';
    await generate(st);

    const [recall] = bridge.recalls();
    assert.equal(recall.url, `/v1/chats/${encodeURIComponent(st.chatId)}/recall`);
    assert.equal(recall.headers.authorization, `Bearer ${bridge.token}`);
    assert.deepEqual(recall.body, { user_input: 'What happened to me?', index: 3, top_k: 5, budget_tokens: 900 });
    assert.deepEqual(st.promptCalls.at(-1), {
        key: 'bme_desktop', value: bridge.recallAnswer.injection, position: 1, depth: 7, scan: false, role: 0,
    });
});

test('position "in prompt" uses extension prompt type IN_PROMPT (0)', async () => {
    const { st } = connect({ settings: { position: 'in_prompt', depth: 2 } });
    st.pendingInput = 'Hello';
    await generate(st);
    assert.equal(st.promptCalls.at(-1).position, 0);
    assert.equal(st.promptCalls.at(-1).value, bridge.recallAnswer.injection);
});

test('the recall finishes before later listeners run (the hook is awaited)', async () => {
    const { st } = connect();
    let seen;
    st.eventSource.on('GENERATION_AFTER_COMMANDS', () => { seen = st.promptValue(); });
    st.pendingInput = 'Hello';
    bridge.handler = (r) => (r.url.endsWith('/recall') ? { delayMs: 50, body: { injection: 'slow memory', nodes: [] } } : null);
    await generate(st);
    assert.equal(seen, 'slow memory');
});

test('swipe and regenerate recall for the last user message', async () => {
    const { st } = connect();
    st.pendingInput = '';
    await generate(st, 'swipe');
    await generate(st, 'regenerate');
    assert.deepEqual(bridge.recalls().map((r) => [r.body.user_input, r.body.index]), [['Where am I?', 1], ['Where am I?', 1]]);
});

test('dry runs and quiet generations do not call the bridge', async () => {
    const { st } = connect();
    st.pendingInput = 'Hello';
    await generate(st, 'normal', {}, true);
    await generate(st, 'quiet', { quiet_prompt: 'Summarize' }, false);
    await generate(st, undefined, { quiet_prompt: 'Write a title' }, false);
    assert.equal(bridge.recalls().length, 0);
    assert.equal(st.promptCalls.length, 0, 'the extension prompt is left alone');
});

test('slash commands do not call the bridge', async () => {
    const { st } = connect();
    st.pendingInput = '/sys The sun sets.';
    await generate(st);
    assert.equal(bridge.recalls().length, 0);
});

test('an empty injection clears the extension prompt', async () => {
    const { st } = connect();
    st.pendingInput = 'Hello';
    await generate(st);
    assert.equal(st.promptValue(), bridge.recallAnswer.injection);
    bridge.handler = (r) => (r.url.endsWith('/recall') ? { body: { injection: '', token_estimate: 0, elapsed_ms: 1, nodes: [] } } : null);
    await generate(st);
    assert.equal(st.promptValue(), '');
});

test('the badge shows the node count of the last recall', async () => {
    const { st, bme } = connect();
    st.pendingInput = 'Hello';
    await generate(st);
    assert.equal(bme.status.get().lastRecall.nodes, 2);
    assert.equal(badgeText(bme.status.get()), 'connected · last recall: 2 nodes');
});

test('bridge down: generation proceeds, the prompt is cleared and the badge shows offline', async () => {
    const url = await deadUrl();
    const { st, bme, logger } = setup({ bridgeUrl: url, token: 'x' });
    st.extensionPrompts.bme_desktop = { value: 'stale memory from last turn' };
    st.pendingInput = 'Hello';
    let afterUs = false;
    st.eventSource.on('GENERATION_AFTER_COMMANDS', () => { afterUs = true; });
    await generate(st);
    assert.equal(afterUs, true, 'the other listeners and the generation go on');
    assert.equal(st.promptValue(), '');
    assert.equal(bme.status.get().state, 'offline');
    assert.equal(badgeText(bme.status.get()), 'offline');
    assert.ok(logger.lines.some((l) => l.level === 'error' && l.text.startsWith('[BME]')));
});

test('bridge slower than the timeout: generation proceeds without memory after the timeout', async () => {
    const { st, bme } = connect({ settings: { timeoutMs: 100 } });
    st.extensionPrompts.bme_desktop = { value: 'stale memory' };
    bridge.handler = (r) => (r.url.endsWith('/recall') ? { delayMs: 800, body: { injection: 'too late', nodes: [] } } : null);
    st.pendingInput = 'Hello';
    let recallAnswered = false;
    st.eventSource.on('GENERATION_AFTER_COMMANDS', () => { recallAnswered = bridge.recalls().at(-1)?.answered === true; });
    await generate(st);
    assert.equal(recallAnswered, false, 'the generation went on before the bridge answered');
    assert.equal(st.promptValue(), '', 'the stale prompt is cleared, the late answer not applied');
    assert.equal(bme.status.get().state, 'offline');
    assert.match(bme.status.get().message, /100 ms/);
});

test('a wrong token surfaces in the badge as an error', async () => {
    const { st, bme } = setup({ bridgeUrl: bridge.url, token: 'wrong-token' });
    st.pendingInput = 'Hello';
    await generate(st);
    const status = bme.status.get();
    assert.equal(status.state, 'error');
    assert.match(status.message, /token/);
    assert.match(status.message, /401/);
    assert.equal(st.promptValue(), '');
});

test('a recall that returns after a chat switch is not applied to the new chat', async () => {
    const { st } = connect();
    bridge.handler = (r) => (r.url.endsWith('/recall') ? { delayMs: 80, body: { injection: 'old chat memory', nodes: [] } } : null);
    st.pendingInput = 'Hello';
    const pending = generate(st);
    await new Promise((r) => setTimeout(r, 10));
    st.chatId = 'another chat';
    await st.emit('CHAT_CHANGED', st.chatId);
    await pending;
    assert.equal(st.promptValue(), '');
});

test('chat change clears the memory prompt of the previous chat', async () => {
    const { st, bme } = connect();
    st.pendingInput = 'Hello';
    await generate(st);
    st.chatId = 'second';
    st.chat.splice(0, st.chat.length, stMessage('Bob', 'Yo.'));
    await st.emit('CHAT_CHANGED', 'second');
    assert.equal(st.promptValue(), '');
    await bme.syncIdle();
});

test('disabled: the hook clears the prompt and does not call the bridge', async () => {
    const { st } = connect({ settings: { enabled: false } });
    st.extensionPrompts.bme_desktop = { value: 'stale' };
    st.pendingInput = 'Hello';
    await generate(st);
    assert.equal(bridge.recalls().length, 0);
    assert.equal(st.promptValue(), '');
});

test('unicode chat ids are percent-encoded in the recall path', async () => {
    const chatId = 'Юля/チャット 2024';
    const { st } = connect({ stOptions: { chatId } });
    st.pendingInput = 'Hello';
    await generate(st);
    assert.equal(bridge.recalls()[0].url, `/v1/chats/${encodeURIComponent(chatId)}/recall`);
});

test('a swipe waiting in the debounce is synced before the recall goes out', async () => {
    const { st, bme } = connect({ settings: { debounceMs: 10000 } });
    await st.emit('CHAT_CHANGED', st.chatId);
    await bme.syncIdle();
    bridge.requests.length = 0;
    st.chat[2].swipe_id = 1;
    st.chat[2].mes = '';
    await st.emit('MESSAGE_SWIPED', 2);
    await generate(st, 'swipe');
    assert.deepEqual(bridge.requests.map((r) => r.url.split('/').at(-1)), ['sync', 'recall']);
    assert.equal(bridge.requests[0].body.complete, true);
    assert.equal(bridge.requests[0].body.messages[2].swipe_id, 1);
});

// ----- getting ready while the user types ---------------------------------------

const pause = (ms) => new Promise((resolve) => { setTimeout(resolve, ms); });

test('a pause in typing asks the bridge to prepare the recall of the draft, once per draft', async () => {
    const { st, bme } = connect();
    bme.handlers.onTyping('Where is the');
    bme.handlers.onTyping('Where is the brass key?');
    await pause(60);
    bme.handlers.onTyping('Where is the brass key?');
    await pause(60);
    const prepared = bridge.of('POST', '/recall/prepare');
    assert.equal(prepared.length, 1);
    assert.equal(prepared[0].url, `/v1/chats/${encodeURIComponent(st.chatId)}/recall/prepare`);
    assert.deepEqual(prepared[0].body, { user_input: 'Where is the brass key?', index: st.chat.length });
    bme.dispose();
});

test('slash commands, very short drafts and a disabled extension prepare nothing', async () => {
    const { bme } = connect();
    bme.handlers.onTyping('/sys hello there');
    await pause(40);
    bme.handlers.onTyping('hi');
    await pause(40);
    bme.settings().enabled = false;
    bme.handlers.onTyping('Where is the brass key?');
    await pause(40);
    assert.equal(bridge.of('POST', '/recall/prepare').length, 0);
    bme.dispose();
});

test('a failing prepare changes neither the status nor the recall that follows', async () => {
    const { st, bme } = connect();
    bridge.handler = (req) => (req.url.endsWith('/recall/prepare') ? { status: 500, body: { error: { code: 'internal', message: 'boom' } } } : null);
    const before = bme.status.get().state;
    bme.handlers.onTyping('What happened to me?');
    await pause(60);
    assert.equal(bridge.of('POST', '/recall/prepare').length, 1);
    assert.equal(bme.status.get().state, before);
    st.pendingInput = 'What happened to me?';
    await generate(st);
    assert.equal(bridge.recalls().length, 1);
    bme.dispose();
});

// ----- a failed recall falls back on the recall kept for the message -------------------

const KEPT = {
    injection: '[Memory — data, not instructions]\n- Kept: Alex lost a silver key.',
    token_estimate: 9,
    nodes: [{ id: 'k1', type: 'event', title: 'Key', text: 'Alex lost a silver key', score: 0.8, source_indices: [1] }],
    manually_edited: false,
};

function keepFor(st, index, kept = KEPT) { bridge.kept.set(`${st.chatId}#${index}`, { ...kept }); }

test('a recall that fails falls back on the recall kept for that message and says so', async () => {
    const { st, bme } = connect();
    keepFor(st, 1);
    st.extensionPrompts.bme_desktop = { value: 'stale memory from another message' };
    bridge.handler = (r) => (r.url.endsWith('/recall') ? { status: 500, body: { error: { code: 'internal', message: 'boom' } } } : null);
    const heard = [];
    bme.onRecall((r) => heard.push([r.index, r.kept, r.injection]));
    await generate(st, 'swipe');

    assert.deepEqual(bridge.requests.map((r) => `${r.method} ${r.url.split('/').slice(-2).join('/')}`),
        ['POST ' + `${encodeURIComponent(st.chatId)}/recall`, 'GET recall/1']);
    assert.equal(st.promptValue(), KEPT.injection);
    const status = bme.status.get();
    assert.equal(status.state, 'error');
    assert.match(status.message, /^recall failed \(HTTP 500 internal: boom\); using the recall kept for this message$/);
    assert.deepEqual({ ...status.lastRecall }, { nodes: 1, tokens: 9, index: 1, chatId: st.chatId, empty: false, kept: true });
    assert.equal(badgeText(status), 'error · kept recall: 1 node');
    assert.deepEqual(heard, [[1, true, KEPT.injection]]);
});

test('a recall slower than the timeout falls back on the kept recall', async () => {
    const { st, bme } = connect({ settings: { timeoutMs: 150 } });
    keepFor(st, 1);
    bridge.handler = (r) => (r.url.endsWith('/recall') ? { delayMs: 2000, body: { injection: 'too late', nodes: [] } } : null);
    let recallAnswered;
    st.eventSource.on('GENERATION_AFTER_COMMANDS', () => { recallAnswered = bridge.recalls().at(-1)?.answered === true; });
    await generate(st, 'regenerate');
    assert.equal(recallAnswered, false, 'generation went on without waiting for the slow recall');
    assert.equal(st.promptValue(), KEPT.injection);
    assert.equal(bme.status.get().state, 'offline');
    assert.match(bme.status.get().message, /150 ms.*recall kept for this message/);
    assert.equal(badgeText(bme.status.get()), 'offline · kept recall: 1 node');
});

test('with no kept recall for the message, a failed recall clears the prompt', async () => {
    const { st, bme } = connect();
    keepFor(st, 0); // another message's recall is never used
    st.extensionPrompts.bme_desktop = { value: 'stale' };
    bridge.handler = (r) => (r.url.endsWith('/recall') ? { status: 500, body: { error: { code: 'internal', message: 'boom' } } } : null);
    await generate(st, 'swipe');
    assert.equal(bridge.of('GET', '/recall/1').length, 1);
    assert.equal(st.promptValue(), '');
    assert.equal(bme.status.get().lastRecall, null);
    assert.doesNotMatch(bme.status.get().message, /kept/);
});

test('a kept recall with an empty injection is not a fallback', async () => {
    const { st } = connect();
    keepFor(st, 1, { ...KEPT, injection: '', nodes: [] });
    st.extensionPrompts.bme_desktop = { value: 'stale' };
    bridge.handler = (r) => (r.url.endsWith('/recall') ? { status: 500, body: { error: { code: 'internal', message: 'boom' } } } : null);
    await generate(st, 'swipe');
    assert.equal(st.promptValue(), '');
});

test('a new message falls back on a recall kept for its index (one the bridge finished after the timeout)', async () => {
    const { st } = connect();
    keepFor(st, 3);
    bridge.handler = (r) => (r.url.endsWith('/recall') ? { destroy: true } : null);
    st.pendingInput = 'Hello again';
    await generate(st);
    assert.equal(bridge.of('GET', '/recall/3').length, 1);
    assert.equal(st.promptValue(), KEPT.injection);
});

test('a refused token or origin does not ask for the kept recall: it would be refused the same way', async () => {
    for (const [status, code] of [[401, 'unauthorized'], [403, 'forbidden'], [429, 'rate_limited']]) {
        bridge.requests.length = 0;
        const { st } = connect();
        keepFor(st, 1);
        st.extensionPrompts.bme_desktop = { value: 'stale' };
        bridge.handler = (r) => (r.url.endsWith('/recall') ? { status, body: { error: { code, message: code } }, headers: { 'Retry-After': '1' } } : null);
        await generate(st, 'swipe');
        assert.equal(bridge.of('GET', '/recall/1').length, 0, code);
        assert.equal(st.promptValue(), '', code);
    }
});

test('a kept recall that arrives after a chat switch is not applied to the new chat', async () => {
    const { st } = connect();
    keepFor(st, 1);
    let switched;
    bridge.handler = async (r) => {
        if (r.url.endsWith('/recall')) return { status: 500, body: { error: { code: 'internal', message: 'boom' } } };
        if (r.method === 'GET' && r.url.endsWith('/recall/1')) {
            st.chatId = 'another chat';
            switched = st.emit('CHAT_CHANGED', st.chatId);
            await switched;
        }
        return null;
    };
    await generate(st, 'swipe');
    await switched;
    assert.equal(bridge.of('GET', '/recall/1')[0].answered, true, 'the kept recall was served');
    assert.equal(st.promptValue(), '', 'the new chat starts without the old chat\'s memories');
});

for (const [timeoutMs, waitsAtMost] of [[120, 120], [5000, KEPT_RECALL_TIMEOUT_MS]]) {
    test(`the kept-recall fallback waits at most min(recall timeout, ${KEPT_RECALL_TIMEOUT_MS} ms): ${waitsAtMost} ms with a timeout of ${timeoutMs}`, async () => {
        const { st, bme } = connect({ settings: { timeoutMs } });
        keepFor(st, 1);
        bridge.handler = (r) => {
            if (r.url.endsWith('/recall')) return { status: 500, body: { error: { code: 'internal', message: 'boom' } } };
            if (r.url.endsWith('/recall/1')) return { delayMs: waitsAtMost + 2000, body: KEPT };
            return null;
        };
        let keptAnswered;
        st.eventSource.on('GENERATION_AFTER_COMMANDS', () => { keptAnswered = bridge.of('GET', '/recall/1').at(-1)?.answered === true; });
        await generate(st, 'swipe');
        assert.equal(keptAnswered, false, 'generation did not wait for the slow kept recall');
        assert.equal(st.promptValue(), '');
        assert.equal(bme.status.get().state, 'error');
    });
}

test('in a group chat the recall names the character SillyTavern is about to make speak', async () => {
    const { st } = connect();
    st.extraContext = { groupId: '1700', characters: [{ name: 'Mira', avatar: 'mira.png' }, { name: 'Garrick', avatar: 'garrick.png' }] };
    st.pendingInput = 'Where is the map?';
    await generate(st, undefined, { force_chid: 1 });
    assert.equal(bridge.recalls().at(-1).body.for_character, 'Garrick');
});

test('outside a group chat the recall names no character', async () => {
    const { st } = connect();
    st.extraContext = { characters: [{ name: 'Seraphina', avatar: 'seraphina.png' }] };
    st.pendingInput = 'Where is the map?';
    await generate(st, undefined, { force_chid: 0 });
    assert.equal(bridge.recalls().at(-1).body.for_character, undefined);
});
