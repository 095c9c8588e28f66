// End-to-end against a real `bme-desktop serve`. Skipped unless both are set:
//   BME_E2E_URL=http://127.0.0.1:PORT  BME_E2E_TOKEN=<token>  node --test resources/sillytavern-extension/test/
// Each run uses a fresh chat id and deletes that chat at the end.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { e2eConfig, setup, stMessage } from './helpers.js';
import { BridgeClient } from '../lib/client.js';

const e2e = e2eConfig();
const chatId = `bme-e2e/ü 你好 ${Date.now()}`;
const client = e2e.skip ? null : new BridgeClient({ config: () => ({ bridgeUrl: e2e.url, token: e2e.token }) });

after(async () => {
    if (client) await client.request('DELETE', `/v1/chats/${encodeURIComponent(chatId)}`, { timeoutMs: 10000 }).catch(() => {});
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
