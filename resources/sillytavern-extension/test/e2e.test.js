// End-to-end against a real `bme-desktop serve`. Skipped unless both are set:
//   BME_E2E_URL=http://127.0.0.1:PORT  BME_E2E_TOKEN=<token>  node --test resources/sillytavern-extension/test/
// Each run uses a fresh chat id and deletes that chat at the end.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { e2eConfig, setup, stMessage, takeTurn } from './helpers.js';
import { BridgeClient, chatPath } from '../lib/client.js';
import { DEFAULT_SETTINGS } from '../lib/constants.js';

const e2e = e2eConfig();
const chatId = `bme-e2e/ü 你好 ${Date.now()}`;
const client = e2e.skip ? null : new BridgeClient({ config: () => ({ bridgeUrl: e2e.url, token: e2e.token }) });

const memoryChatId = `bme-e2e memory ${Date.now()}`;

after(async () => {
    for (const id of [chatId, memoryChatId]) {
        if (client) await client.request('DELETE', chatPath(id), { timeoutMs: 10000 }).catch(() => {});
    }
});

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

/**
 * The user reads the reply and types the next message; meanwhile the bridge extracts what
 * was synced. A sync of no messages with `wait: true` answers once every extraction queued
 * for the chat so far has finished: a barrier, not a guess at how long that takes.
 */
async function userReadsTheReply(id) {
    await client.sync(id, { messages: [], wait: true }, { timeoutMs: 120000 });
}

const SMALL_TALK = [
    ['The fire is warm tonight.', 'It is. The forest spirits keep it burning.'],
    ['I saw an owl on the way here.', 'Owls watch over the glade at night.'],
    ['Can you teach me to fish?', 'Tomorrow, at the river bend.'],
    ['What is that smell?', 'Pine resin, drying on the stones.'],
    ['I am hungry.', 'There is bread and honey in the basket.'],
    ['Do you ever sleep?', 'Rarely, and only when the moon is new.'],
    ['The stars are bright.', 'They always are above the glade.'],
    ['Is it going to rain?', 'Not tonight; the wind is from the east.'],
    ['I like your cloak.', 'It was woven from moss and moonlight.'],
    ['Tell me a story.', 'Once, a fox tricked the river into flowing uphill.'],
    ['My boots are still wet.', 'Leave them by the embers.'],
    ['What bird is singing?', 'A nightingale, the only one that stays.'],
];

test('e2e: with default settings, a fact told three turns earlier is injected when asked, and still after ten more turns',
    { skip: e2e.skip }, async () => {
        // Default bridge settings (the served data dir has none) and the extension's defaults for
        // everything that shapes what is recalled (top k, budget, position, depth); only the recall
        // timeout is raised, so a loaded 2-core test machine cannot turn a slow recall into a miss.
        const { st, bme } = setup({
            bridgeUrl: e2e.url,
            token: e2e.token,
            settings: { timeoutMs: 20000 },
            stOptions: {
                chatId: memoryChatId,
                chat: [stMessage('Seraphina', 'Welcome to the glade, traveller. Sit by the fire and tell me about yourself.')],
            },
        });
        const s = bme.settings();
        for (const key of ['topK', 'budgetTokens', 'position', 'depth', 'enabled']) assert.equal(s[key], DEFAULT_SETTINGS[key], key);
        await st.emit('CHAT_CHANGED', memoryChatId);
        await bme.syncIdle();
        await userReadsTheReply(memoryChatId);

        // The replies never repeat the fact: whatever brings it back is the memory of turn 1.
        const talk = async (user, reply) => {
            const injection = await takeTurn(st, bme, user, reply);
            assert.notEqual(bme.status.get().state, 'offline', bme.status.get().message);
            assert.notEqual(bme.status.get().state, 'error', bme.status.get().message);
            await userReadsTheReply(memoryChatId);
            return injection;
        };
        const told = st.chat.length;
        await talk('My sister Lena lives in Lisbon.', 'How lovely. Do you miss her?');
        await talk(...SMALL_TALK[0]);
        await talk(...SMALL_TALK[1]);

        const asked = st.chat.length;
        const first = await talk('Where does my sister Lena live?', 'I remember you told me about her.');
        assert.match(first, /Lena lives in Lisbon/, `three turns later the fact is not in the injection:\n${first}`);
        assert.equal(bme.status.get().lastRecall.index, asked);
        const kept = await client.getRecall(memoryChatId, asked, { timeoutMs: 10000 });
        assert.match(kept.injection, /Lena lives in Lisbon/, 'the recall kept for the question holds the fact');
        assert.ok(kept.nodes.some((n) => n.source_indices.includes(told) && /Lisbon/.test(n.text)),
            `no recalled memory comes from message ${told}: ${JSON.stringify(kept.nodes.map((n) => [n.type, n.text, n.source_indices]))}`);

        for (let i = 0; i < 10; i++) await talk(...SMALL_TALK[2 + i]);

        const again = await talk('Remind me, where does my sister Lena live?', 'Of course I remember.');
        assert.match(again, /Lena lives in Lisbon/, `ten turns later the fact is no longer injected:\n${again}`);
        bme.dispose();
    });
