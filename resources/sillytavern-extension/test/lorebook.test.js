// The chat's lorebook (World Info) → PUT /v1/chats/{id}/lorebook, against a fake bridge over real HTTP.

import { test, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { startFakeBridge, setup } from './helpers.js';
import { toBridgeEntries } from '../lib/lorebook.js';

let bridge;
before(async () => { bridge = await startFakeBridge(); });
after(async () => { await bridge.close(); });
beforeEach(() => {
    bridge.requests.length = 0;
    bridge.handler = ({ method, url }) => (method === 'PUT' && url.endsWith('/lorebook')
        ? { body: { added: 1, updated: 0, removed: 0, unchanged: 0, refused: [] } } : null);
});

/** What getSortedEntries gives: SillyTavern's entry objects, each with its book as `world`. */
const TOWER = {
    uid: 3, world: 'Eldoria', key: ['Glass Tower'], keysecondary: [], comment: 'Glass Tower',
    content: 'The Glass Tower stands on the northern cliffs.', constant: false, order: 100, position: 0,
    disable: false, selective: true, probability: 100, hash: 123, decorators: [],
};

function connect(entries, settings = {}) {
    const book = { entries };
    const env = setup({
        bridgeUrl: bridge.url, token: bridge.token, settings,
        coreOptions: { getLorebookEntries: async () => book.entries },
    });
    return { ...env, book };
}

const puts = () => bridge.of('PUT', '/lorebook');

test('a chat load sends its lorebook entries after the chat itself', async () => {
    const { st, bme } = connect([TOWER]);
    await st.emit('CHAT_CHANGED', st.chatId);
    await bme.syncIdle();
    assert.deepEqual(bridge.requests.map((r) => `${r.method} ${r.url.split('/').pop()}`), ['POST sync', 'PUT lorebook']);
    assert.equal(puts()[0].url, `/v1/chats/${encodeURIComponent(st.chatId)}/lorebook`);
    assert.deepEqual(puts()[0].body.entries, [{
        book: 'Eldoria', uid: 3, key: ['Glass Tower'], keysecondary: [], comment: 'Glass Tower',
        content: 'The Glass Tower stands on the northern cliffs.', constant: false, order: 100, position: 0, disable: false,
    }]);
});

test('an edited lorebook is sent again; an unchanged one is not', async () => {
    const { st, bme, book } = connect([TOWER]);
    await st.emit('CHAT_CHANGED', st.chatId);
    await bme.syncIdle();
    await st.eventSource.emit('worldinfo_updated', 'Eldoria', {});
    await bme.syncIdle();
    assert.equal(puts().length, 1);
    book.entries = [{ ...TOWER, content: 'The Glass Tower fell.' }];
    await st.eventSource.emit('worldinfo_updated', 'Eldoria', {});
    await bme.syncIdle();
    assert.deepEqual(puts().map((r) => r.body.entries[0].content),
        ['The Glass Tower stands on the northern cliffs.', 'The Glass Tower fell.']);
});

test('switched off in the settings, no lorebook is sent', async () => {
    const { st, bme } = connect([TOWER], { sendLorebook: false });
    await st.emit('CHAT_CHANGED', st.chatId);
    await bme.syncIdle();
    assert.deepEqual(puts(), []);
});

test('entries the bridge refuses are named in the console and the status', async () => {
    bridge.handler = ({ method }) => (method === 'PUT'
        ? { body: { added: 0, refused: [{ book: 'Eldoria', uid: 9, reason: 'entries[0].content: too long' }] } } : null);
    const { st, bme, logger } = connect([TOWER]);
    await st.emit('CHAT_CHANGED', st.chatId);
    await bme.syncIdle();
    assert.match(bme.status.get().message, /1 lorebook entry not kept/);
    assert.ok(logger.lines.some((l) => l.text.includes('Eldoria #9 not kept: entries[0].content: too long')));
});

test('entries without a book or uid are left out, and a book reached twice is sent once', () => {
    const out = toBridgeEntries([TOWER, { ...TOWER }, { ...TOWER, world: '' }, { ...TOWER, uid: undefined }, null]);
    assert.deepEqual(out.map((e) => [e.book, e.uid]), [['Eldoria', 3]]);
});
