// End-to-end against a real `bme-desktop serve`. Skipped unless both are set:
//   BME_E2E_URL=http://127.0.0.1:PORT  BME_E2E_TOKEN=<token>  node --test resources/sillytavern-extension/test/
// Each run uses a fresh chat id and deletes that chat at the end.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { e2eConfig, setup, stMessage } from './helpers.js';
import { DEFAULT_SETTINGS } from '../lib/constants.js';
import {
    FACT, FACT_TEXT, QUESTION, SMALL_TALK, bridgeClient, deleteChats, openStory, recalledFrom,
} from './story.js';

const e2e = e2eConfig();
const chatId = `bme-e2e/ü 你好 ${Date.now()}`;
const client = bridgeClient(e2e);
const memoryChatId = `bme-e2e memory ${Date.now()}`;
const fallbackChatId = `bme-e2e kept recall ${Date.now()}`;
const loreChatId = `bme-e2e lorebook ${Date.now()}`;

after(() => deleteChats(client, [chatId, memoryChatId, fallbackChatId, loreChatId]));

function connect() {
    return setup({ bridgeUrl: e2e.url, token: e2e.token, settings: { timeoutMs: 10000 }, stOptions: { chatId } });
}

test('e2e: test connection succeeds with the real token', { skip: e2e.skip }, async () => {
    const { bme } = connect();
    const result = await bme.testConnection();
    assert.equal(result.ok, true, result.message);
    await bme.syncIdle();
});

test('e2e: chat change stores every message under a unicode chat id with a slash', { skip: e2e.skip }, async () => {
    const { st, bme } = connect();
    await st.emit('CHAT_CHANGED', chatId);
    await bme.syncIdle();
    assert.notEqual(bme.status.get().state, 'error', bme.status.get().message);
    const stats = await client.request('GET', `/v1/chats/${encodeURIComponent(chatId)}`, { timeoutMs: 10000 });
    assert.equal(stats.chat_id, chatId);
    assert.equal(stats.message_count, st.chat.length);
});

test('e2e: new messages, then a delete, keep the bridge in step with the chat', { skip: e2e.skip }, async () => {
    const { st, bme } = connect();
    await st.emit('CHAT_CHANGED', chatId);
    await bme.syncIdle();
    st.chat.push(stMessage('Alex', 'Thank you for saving me.', { user: true }));
    await st.emit('MESSAGE_SENT', st.chat.length - 1);
    st.chat.push(stMessage('Seraphina', 'Rest, the forest protects you.'));
    await st.emit('MESSAGE_RECEIVED', st.chat.length - 1);
    await bme.syncIdle();
    let stats = await client.request('GET', `/v1/chats/${encodeURIComponent(chatId)}`, { timeoutMs: 10000 });
    assert.equal(stats.message_count, 5);

    st.chat.pop();
    await st.emit('MESSAGE_DELETED', st.chat.length);
    await bme.syncIdle();
    stats = await client.request('GET', `/v1/chats/${encodeURIComponent(chatId)}`, { timeoutMs: 10000 });
    assert.equal(stats.message_count, 4);
});

test('e2e: recall before generation answers within the timeout and sets the prompt', { skip: e2e.skip }, async () => {
    const { st, bme } = connect();
    await st.emit('CHAT_CHANGED', chatId);
    await bme.syncIdle();
    st.pendingInput = 'What happened to me in the forest?';
    await st.emit('GENERATION_AFTER_COMMANDS', undefined, {}, false);
    const call = st.promptCalls.at(-1);
    assert.equal(bme.status.get().state === 'error' || bme.status.get().state === 'offline', false, bme.status.get().message);
    assert.equal(call.key, 'bme_desktop');
    assert.equal(typeof call.value, 'string');
    assert.equal(bme.status.get().lastRecall.index, st.chat.length);
});

test('e2e: a wrong token is refused and shown in the badge', { skip: e2e.skip }, async () => {
    const { st, bme } = setup({ bridgeUrl: e2e.url, token: 'definitely-not-the-token', stOptions: { chatId } });
    st.pendingInput = 'Hello';
    await st.emit('GENERATION_AFTER_COMMANDS', undefined, {}, false);
    assert.equal(bme.status.get().state, 'error');
    assert.match(bme.status.get().message, /401/);
});

// ----- the real client keeps memory ---------------------------------------------

test('e2e: with default settings, a fact told three turns earlier is injected when asked, and still after ten more turns',
    { skip: e2e.skip }, async () => {
        // Default bridge settings: the served data dir has none.
        const { st, bme, talk } = await openStory({ e2e, client, chatId: memoryChatId });
        const s = bme.settings();
        for (const key of ['topK', 'budgetTokens', 'position', 'depth', 'enabled']) assert.equal(s[key], DEFAULT_SETTINGS[key], key);

        const told = st.chat.length;
        await talk(...FACT);
        await talk(...SMALL_TALK[0]);
        await talk(...SMALL_TALK[1]);

        const asked = st.chat.length;
        const first = await talk(...QUESTION);
        assert.match(first, FACT_TEXT, `three turns later the fact is not in the injection:\n${first}`);
        assert.equal(bme.status.get().lastRecall.index, asked);
        assert.equal(bme.status.get().lastRecall.held, 0, 'by default nothing is held for review');
        const kept = await client.getRecall(memoryChatId, asked, { timeoutMs: 10000 });
        assert.match(kept.injection, FACT_TEXT, 'the recall kept for the question holds the fact');
        assert.ok(recalledFrom(kept.nodes, told),
            `no recalled memory comes from message ${told}: ${JSON.stringify(kept.nodes.map((n) => [n.type, n.text, n.source_indices]))}`);

        for (let i = 0; i < 10; i++) await talk(...SMALL_TALK[2 + i]);

        const again = await talk('Remind me, where does my sister Lena live?', 'Of course I remember.');
        assert.match(again, FACT_TEXT, `ten turns later the fact is no longer injected:\n${again}`);
        bme.dispose();
    });

test('e2e: when a recall fails, the recall the bridge kept for that message is injected instead', { skip: e2e.skip }, async () => {
    // The network drops the recall requests only (as a flaky connection or a stalled bridge
    // would); everything else reaches the real bridge.
    let dropRecalls = false;
    const fetchImpl = (url, init) => (dropRecalls && init?.method === 'POST' && String(url).endsWith('/recall')
        ? Promise.reject(new TypeError('fetch failed'))
        : fetch(url, init));
    const { st, bme, talk } = await openStory({ e2e, client, chatId: fallbackChatId, coreOptions: { fetch: fetchImpl } });
    await talk(...FACT);
    const asked = st.chat.length;
    const answered = await talk(...QUESTION);
    assert.notEqual(answered, '', 'the question got memories');
    const kept = await client.getRecall(fallbackChatId, asked, { timeoutMs: 10000 });
    assert.equal(kept.injection, answered, 'the bridge kept what was injected');

    // The user swipes the reply: SillyTavern swaps the text, then generates again for the same question.
    const reply = st.chat[asked + 1];
    reply.swipes.push('Lena? Tell me more about her.');
    reply.swipe_id = 1;
    reply.mes = reply.swipes[1];
    await st.emit('MESSAGE_SWIPED', asked + 1);
    dropRecalls = true;
    await st.emit('GENERATION_STARTED', 'swipe', {}, false);
    await st.emit('GENERATION_AFTER_COMMANDS', 'swipe', {}, false);

    assert.equal(st.promptValue(), kept.injection, 'the kept recall of the question is in the prompt');
    const status = bme.status.get();
    assert.equal(status.state, 'offline');
    assert.match(status.message, /using the recall kept for this message/);
    assert.equal(status.lastRecall.kept, true);
    assert.equal(status.lastRecall.index, asked);
    bme.dispose();
});

test('e2e: the chat\'s lorebook becomes read-only world memories that follow its edits and are recalled',
    { skip: e2e.skip }, async () => {
        const book = { entries: [{
            uid: 3, world: 'Eldoria', key: ['Glass Tower'], keysecondary: [], comment: 'Glass Tower',
            content: 'The Glass Tower stands on the northern cliffs; its keepers trade in storm-glass.',
            constant: false, order: 100, position: 0, disable: false,
        }] };
        const { st, bme } = setup({
            bridgeUrl: e2e.url, token: e2e.token, settings: { timeoutMs: 10000 }, stOptions: { chatId: loreChatId },
            coreOptions: { getLorebookEntries: async () => book.entries },
        });
        await st.emit('CHAT_CHANGED', loreChatId);
        await bme.syncIdle();
        const path = `/v1/chats/${encodeURIComponent(loreChatId)}/nodes?limit=500`;
        const lore = async () => (await client.request('GET', path, { timeoutMs: 10000 })).items.filter((n) => n.lorebook);
        let [tower] = await lore();
        assert.deepEqual([tower.title, tower.scope.kind, tower.lorebook.read_only], ['Glass Tower', 'world', true]);

        book.entries = [{ ...book.entries[0], content: 'The Glass Tower fell in the war of ash.' }];
        await st.emit('WORLDINFO_UPDATED', 'Eldoria', {});
        await bme.syncIdle();
        [tower] = await lore();
        assert.equal(tower.fields.statement, 'The Glass Tower fell in the war of ash.');

        st.pendingInput = 'What happened to the Glass Tower?';
        await st.emit('GENERATION_AFTER_COMMANDS', undefined, {}, false);
        assert.match(st.promptValue() ?? '', /war of ash/);
    });
