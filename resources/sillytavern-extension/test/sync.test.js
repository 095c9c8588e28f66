// Chat events → POST /v1/chats/{id}/sync, against a fake bridge over real HTTP.

import { test, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { startFakeBridge, setup, stMessage } from './helpers.js';

let bridge;
before(async () => { bridge = await startFakeBridge(); });
after(async () => { await bridge.close(); });
beforeEach(() => { bridge.requests.length = 0; bridge.handler = null; });

function connect(opts = {}) {
    return setup({ bridgeUrl: bridge.url, token: bridge.token, ...opts });
}

test('chat change sends a complete sync of every message with the right shapes', async () => {
    const { st, bme } = connect();
    st.chat.push(stMessage('Narrator', 'The wind rises.', { system: true }));
    await st.emit('CHAT_CHANGED', st.chatId);
    await bme.syncIdle();

    const syncs = bridge.syncs();
    assert.equal(syncs.length, 1);
    const { url, headers, body } = syncs[0];
    assert.equal(url, `/v1/chats/${encodeURIComponent(st.chatId)}/sync`);
    assert.equal(headers.authorization, `Bearer ${bridge.token}`);
    assert.equal(headers['content-type'], 'application/json');
    assert.equal(body.complete, true);
    assert.equal(body.character, 'Seraphina');
    assert.equal(body.user, 'Alex');
    assert.deepEqual(body.messages, [
        { index: 0, role: 'assistant', name: 'Seraphina', text: 'Welcome to the glade, traveller.', swipe_id: 0 },
        { index: 1, role: 'user', name: 'Alex', text: 'Where am I?' },
        { index: 2, role: 'assistant', name: 'Seraphina', text: 'In my forest. You were hurt.', swipe_id: 0 },
        { index: 3, role: 'system', name: 'Narrator', text: 'The wind rises.', swipe_id: 0 },
    ]);
    assert.equal(bme.status.get().state, 'connected');
});

test('a parseable send_date becomes an ISO time on the message', async () => {
    const { st, bme } = connect();
    st.chat[1].send_date = '2023-05-08T13:56:00.000Z';
    await st.emit('CHAT_CHANGED', st.chatId);
    await bme.syncIdle();
    assert.equal(bridge.syncs()[0].body.messages[1].time, '2023-05-08T13:56:00Z');
    assert.equal(bridge.syncs()[0].body.messages[0].time, undefined);
});

test('a received message sends only the newest messages (complete: false)', async () => {
    const { st, bme } = connect();
    await st.emit('CHAT_CHANGED', st.chatId);
    await bme.syncIdle();
    bridge.requests.length = 0;

    st.chat.push(stMessage('Alex', 'Thank you.', { user: true }));
    await st.emit('MESSAGE_SENT', 3);
    st.chat.push(stMessage('Seraphina', 'Rest now.'));
    await st.emit('MESSAGE_RECEIVED', 4);
    await bme.syncIdle();

    const syncs = bridge.syncs();
    assert.equal(syncs.length, 1, 'the burst is debounced into one request');
    assert.equal(syncs[0].body.complete, false);
    assert.deepEqual(syncs[0].body.messages.map((m) => [m.index, m.role, m.text]), [
        [3, 'user', 'Thank you.'],
        [4, 'assistant', 'Rest now.'],
    ]);
});

test('the first sync of a chat is complete even when triggered by a new message', async () => {
    const { st, bme } = connect();
    st.chat.push(stMessage('Seraphina', 'More.'));
    await st.emit('MESSAGE_RECEIVED', 3);
    await bme.syncIdle();
    const [sync] = bridge.syncs();
    assert.equal(sync.body.complete, true);
    assert.equal(sync.body.messages.length, 4);
});

for (const [event, arg, mutate] of [
    ['MESSAGE_EDITED', '1', (chat) => { chat[1].mes = 'Where am I, really?'; }],
    ['MESSAGE_DELETED', 2, (chat) => { chat.splice(2, 1); }],
    ['MESSAGE_SWIPED', 2, (chat) => { chat[2].swipe_id = 1; chat[2].mes = 'Another answer.'; chat[2].swipes.push('Another answer.'); }],
]) {
    test(`${event} sends a complete sync of the changed chat`, async () => {
        const { st, bme } = connect();
        await st.emit('CHAT_CHANGED', st.chatId);
        await bme.syncIdle();
        bridge.requests.length = 0;

        mutate(st.chat);
        await st.emit(event, arg);
        await bme.syncIdle();

        const syncs = bridge.syncs();
        assert.equal(syncs.length, 1);
        assert.equal(syncs[0].body.complete, true);
        assert.deepEqual(syncs[0].body.messages.map((m) => m.text), st.chat.map((m) => m.mes));
        assert.deepEqual(syncs[0].body.messages.map((m) => m.swipe_id), st.chat.map((m) => m.swipe_id));
    });
}

test('a partial sync after a failed one is upgraded to complete', async () => {
    const { st, bme } = connect();
    bridge.handler = (r) => (r.url.endsWith('/sync') ? { status: 503, body: { error: { code: 'unavailable', message: 'busy' } } } : null);
    await st.emit('CHAT_CHANGED', st.chatId);
    await bme.syncIdle();
    assert.equal(bme.status.get().state, 'error');
    bridge.handler = null;
    bridge.requests.length = 0;

    st.chat.push(stMessage('Seraphina', 'Later.'));
    await st.emit('MESSAGE_RECEIVED', 3);
    await bme.syncIdle();
    const [sync] = bridge.syncs();
    assert.equal(sync.body.complete, true);
    assert.equal(sync.body.messages.length, 4);
    assert.equal(bme.status.get().state, 'connected');
});

test('chat ids with unicode and slashes are percent-encoded in the path', async () => {
    const chatId = 'Séraphina/小说 - 2024-5-8 @13h56m?#%';
    const { st, bme } = connect({ stOptions: { chatId } });
    await st.emit('CHAT_CHANGED', chatId);
    await bme.syncIdle();
    const [sync] = bridge.syncs();
    assert.equal(sync.url, `/v1/chats/${encodeURIComponent(chatId)}/sync`);
    assert.ok(!sync.url.slice('/v1/chats/'.length, -'/sync'.length).includes('/'));
    assert.equal(decodeURIComponent(sync.url.split('/')[3]), chatId);
});

test('sync answers that queue extraction show "extracting" in the badge', async () => {
    const { st, bme } = connect();
    bridge.handler = (r) => (r.url.endsWith('/sync')
        ? { body: { chat_id: 'x', stored: 3, changed_from: null, rolled_back: { batches: 0, nodes: 0 }, extraction: { queued: 1, done: 0 }, revision: 2 } }
        : null);
    await st.emit('CHAT_CHANGED', st.chatId);
    await bme.syncIdle();
    assert.equal(bme.status.get().state, 'extracting');
});

test('nothing is synced when the extension is disabled', async () => {
    const { st, bme } = connect({ settings: { enabled: false } });
    await st.emit('CHAT_CHANGED', st.chatId);
    await st.emit('MESSAGE_RECEIVED', 2);
    await bme.syncIdle();
    assert.equal(bridge.syncs().length, 0);
    assert.equal(bme.status.get().state, 'disabled');
});

test('switching chats before the debounce fires syncs only the new chat', async () => {
    const { st, bme } = connect({ settings: { debounceMs: 50 } });
    await st.emit('CHAT_CHANGED', st.chatId);
    st.chatId = 'Other chat';
    st.chat.splice(0, st.chat.length, stMessage('Bob', 'Hi.'));
    await st.emit('CHAT_CHANGED', st.chatId);
    await bme.syncIdle();
    const syncs = bridge.syncs();
    assert.equal(syncs.length, 1);
    assert.equal(syncs[0].url, `/v1/chats/${encodeURIComponent('Other chat')}/sync`);
    assert.deepEqual(syncs[0].body.messages.map((m) => m.text), ['Hi.']);
});

test('a rate-limited sync is retried as a complete sync after Retry-After', async () => {
    const { st, bme } = connect();
    let refused = 0;
    bridge.handler = (r) => (r.url.endsWith('/sync') && refused++ === 0
        ? { status: 429, headers: { 'Retry-After': '1' }, body: { error: { code: 'rate_limited', message: 'slow down' } } }
        : null);
    await st.emit('CHAT_CHANGED', st.chatId);
    await bme.syncIdle();
    assert.equal(bme.status.get().state, 'error');
    for (let i = 0; i < 300 && bridge.syncs().length < 2; i++) await new Promise((r) => setTimeout(r, 10));
    await bme.syncIdle();
    const syncs = bridge.syncs();
    assert.equal(syncs.length, 2);
    assert.equal(syncs[1].body.complete, true);
    assert.equal(syncs[1].body.messages.length, st.chat.length);
    assert.equal(bme.status.get().state, 'connected');
});

test('a sync names the character by its avatar file and the persona by its key', async () => {
    const { st, bme } = connect({ coreOptions: { getPersonaId: () => 'alex-persona.png' } });
    st.extraContext = { characters: [{ name: 'Seraphina', avatar: 'seraphina.png' }] };
    await st.emit('CHAT_CHANGED', st.chatId);
    await bme.syncIdle();
    const { body } = bridge.syncs()[0];
    assert.equal(body.character_id, 'seraphina.png');
    assert.equal(body.persona_id, 'alex-persona.png');
});

test('a group chat\'s sync names its members', async () => {
    const { st, bme } = connect();
    st.extraContext = { groupId: '1700', groups: [{ id: '1700', name: 'Harbour crew', members: ['mira.png', 'wren.png'] }],
        characters: [{ name: 'Mira', avatar: 'mira.png' }, { name: 'Wren', avatar: 'wren.png' }] };
    await st.emit('CHAT_CHANGED', st.chatId);
    await bme.syncIdle();
    assert.deepEqual(bridge.syncs()[0].body.members, ['Mira', 'Wren']);
});

test('a group chat is named by its group id; no ids at all leaves them out', async () => {
    const { st, bme } = connect();
    st.extraContext = { groupId: '1700', characters: [{ name: 'Seraphina', avatar: 'seraphina.png' }] };
    await st.emit('CHAT_CHANGED', st.chatId);
    await bme.syncIdle();
    assert.equal(bridge.syncs()[0].body.character_id, 'group:1700');
    bridge.requests.length = 0;
    st.extraContext = {};
    await st.emit('CHAT_CHANGED', st.chatId);
    await bme.syncIdle();
    const { body } = bridge.syncs()[0];
    assert.equal('character_id' in body, false);
    assert.equal('persona_id' in body, false);
});
