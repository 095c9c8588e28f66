// "Test connection", the kept recall per user message, and live bridge events.

import { test, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { startFakeBridge, setup, deadUrl } from './helpers.js';
import { badgeText } from '../lib/status.js';

let bridge;
before(async () => { bridge = await startFakeBridge(); });
after(async () => { await bridge.close(); });
beforeEach(() => { bridge.requests.length = 0; bridge.handler = null; bridge.kept.clear(); });

test('test connection: GET /v1/health without token, then an authenticated GET /v1/chats', async () => {
    const { bme } = setup({ bridgeUrl: `${bridge.url}/`, token: bridge.token });
    const result = await bme.testConnection();
    assert.equal(result.ok, true);
    assert.equal(result.chats, 1);
    const [health, chats] = bridge.requests;
    assert.equal(health.method, 'GET');
    assert.equal(health.url, '/v1/health');
    assert.equal(health.headers.authorization, undefined);
    assert.equal(chats.url, '/v1/chats');
    assert.equal(chats.headers.authorization, `Bearer ${bridge.token}`);
    assert.match(chats.headers['x-bme-client'], /^SillyTavern-extension\//);
    assert.equal(health.headers['x-bme-client'], undefined); // a health probe stays a simple request
    assert.equal(bme.status.get().state, 'connected');
});

test('test connection with a wrong token reports the auth step and shows an error badge', async () => {
    const { bme } = setup({ bridgeUrl: bridge.url, token: 'nope' });
    const result = await bme.testConnection();
    assert.equal(result.ok, false);
    assert.equal(result.step, 'auth');
    assert.equal(result.kind, 'unauthorized');
    assert.equal(bme.status.get().state, 'error');
    assert.equal(badgeText(bme.status.get()), 'error');
});

test('test connection to nothing reports offline', async () => {
    const { bme } = setup({ bridgeUrl: await deadUrl(), token: 'x' });
    const result = await bme.testConnection();
    assert.equal(result.ok, false);
    assert.equal(result.step, 'health');
    assert.equal(bme.status.get().state, 'offline');
});

test('test connection refuses a bridge that speaks another protocol', async () => {
    const { bme } = setup({ bridgeUrl: bridge.url, token: bridge.token });
    bridge.handler = (r) => (r.url === '/v1/health' ? { body: { status: 'ok', protocol: 2, version: '9' } } : null);
    const result = await bme.testConnection();
    assert.equal(result.ok, false);
    assert.equal(result.kind, 'protocol');
});

test('a successful test connection syncs the open chat completely', async () => {
    const { bme } = setup({ bridgeUrl: bridge.url, token: bridge.token });
    await bme.testConnection();
    await bme.syncIdle();
    assert.equal(bridge.syncs().length, 1);
    assert.equal(bridge.syncs()[0].body.complete, true);
});

test('the recall kept for a user message can be read, replaced and deleted', async () => {
    const chatId = 'kept/ü';
    const { st, bme } = setup({ bridgeUrl: bridge.url, token: bridge.token, stOptions: { chatId } });
    st.pendingInput = 'Hello';
    await st.emit('GENERATION_AFTER_COMMANDS', undefined, {}, false);

    const kept = await bme.getRecall(3);
    assert.equal(kept.injection, bridge.recallAnswer.injection);
    await bme.putRecall(3, 'edited by hand');
    assert.equal((await bme.getRecall(3)).manually_edited, true);
    await bme.deleteRecall(3);
    await assert.rejects(bme.getRecall(3), (err) => err.kind === 'not_found');

    const paths = bridge.requests.filter((r) => r.url.includes('/recall/')).map((r) => `${r.method} ${r.url}`);
    const base = `/v1/chats/${encodeURIComponent(chatId)}/recall/3`;
    assert.deepEqual(paths, [`GET ${base}`, `PUT ${base}`, `GET ${base}`, `DELETE ${base}`, `GET ${base}`]);
    assert.deepEqual(bridge.requests.find((r) => r.method === 'PUT').body, { injection: 'edited by hand' });
    assert.notEqual(bme.status.get().state, 'error', 'a missing recall is not a connection error');
});

test('recall listeners hear about each applied recall (for the view under the message)', async () => {
    const { st, bme } = setup({ bridgeUrl: bridge.url, token: bridge.token });
    const heard = [];
    bme.onRecall((r) => heard.push([r.index, r.nodes, r.injection]));
    st.pendingInput = 'Hello';
    await st.emit('GENERATION_AFTER_COMMANDS', undefined, {}, false);
    assert.deepEqual(heard, [[3, 2, bridge.recallAnswer.injection]]);
});

/** Enough of a browser WebSocket for the events stream. */
class FakeSocket {
    static all = [];
    constructor(url) { this.url = url; this.sent = []; FakeSocket.all.push(this); }
    send(data) { this.sent.push(JSON.parse(data)); }
    close() { this.closed = true; }
    open() { this.onopen?.(); }
    push(event) { this.onmessage?.({ data: JSON.stringify(event) }); }
}

test('live events: the token is sent first, extraction events drive the badge', async () => {
    FakeSocket.all.length = 0;
    const { st, bme } = setup({ bridgeUrl: bridge.url, token: bridge.token, coreOptions: { WebSocket: FakeSocket } });
    await st.emit('CHAT_CHANGED', st.chatId);
    await bme.syncIdle();
    const [socket] = FakeSocket.all;
    assert.equal(socket.url, `${bridge.url.replace('http', 'ws')}/v1/events`);
    socket.open();
    assert.deepEqual(socket.sent, [{ token: bridge.token }]);

    socket.push({ type: 'extraction.started', chat_id: st.chatId });
    assert.equal(bme.status.get().state, 'extracting');
    socket.push({ type: 'extraction.started', chat_id: 'some other chat' });
    socket.push({ type: 'extraction.finished', chat_id: st.chatId });
    assert.equal(bme.status.get().state, 'connected');
    bme.dispose();
    assert.equal(socket.closed, true);
});

test('live events: a long import shows its progress until nothing is due', async () => {
    FakeSocket.all.length = 0;
    const { st, bme } = setup({ bridgeUrl: bridge.url, token: bridge.token, coreOptions: { WebSocket: FakeSocket } });
    await st.emit('CHAT_CHANGED', st.chatId);
    await bme.syncIdle();
    const [socket] = FakeSocket.all;
    socket.open();
    socket.push({ type: 'extraction.progress', chat_id: st.chatId, extracted: 2140, total: 10000, due: 7860, eta_s: 180 });
    assert.equal(bme.status.get().message, 'extracting memories: 2,140 of 10,000 messages · about 3 min');
    socket.push({ type: 'extraction.finished', chat_id: st.chatId });
    socket.push({ type: 'extraction.started', chat_id: st.chatId });
    assert.equal(bme.status.get().state, 'extracting'); // a batch ending is not the import ending
    assert.match(bme.status.get().message, /2,140 of 10,000/);
    socket.push({ type: 'extraction.progress', chat_id: st.chatId, extracted: 10000, total: 10000, due: 0, eta_s: null });
    assert.equal(bme.status.get().state, 'connected');
    bme.dispose();
});

test('after going offline, the extension probes the bridge and re-syncs the chat when it is back', async () => {
    const { st, bme } = setup({ bridgeUrl: bridge.url, token: bridge.token, coreOptions: { reconnectMs: 20 } });
    bridge.handler = () => ({ destroy: true }); // the connection drops: looks like a dead bridge
    st.pendingInput = 'Hello';
    await st.emit('GENERATION_AFTER_COMMANDS', undefined, {}, false);
    assert.equal(bme.status.get().state, 'offline');

    bridge.handler = null;
    for (let i = 0; i < 200 && bridge.syncs().length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    await bme.syncIdle();
    assert.ok(bridge.of('GET', '/v1/health').length >= 1);
    assert.equal(bridge.syncs().length, 1);
    assert.equal(bridge.syncs()[0].body.complete, true);
    assert.equal(bme.status.get().state, 'connected');
    bme.dispose();
});
