// Pairing by the installer: bme-connection.json beside the extension is adopted once, and again
// only when the installer writes a newer one.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { adoptInstallerConnection, parseConnection, CONNECTION_FILE } from '../lib/pairing.js';

const TOKEN = 'abcdefghijklmnopqrstuvwxyz012345';
const FILE = { url: 'http://127.0.0.1:7317/', token: TOKEN, written_at: 1000 };

function fakeFetch(body, { status = 200 } = {}) {
    const calls = [];
    const fetch = async (url) => {
        calls.push(String(url));
        if (body instanceof Error) throw body;
        return { ok: status === 200, status, json: async () => (typeof body === 'string' ? JSON.parse(body) : body) };
    };
    return { fetch, calls };
}

async function adopt(settings, body, opts) {
    const { fetch, calls } = fakeFetch(body, opts);
    let saved = 0;
    const adopted = await adoptInstallerConnection({ settings, save: () => { saved += 1; }, fetch,
        base: 'http://st.local/scripts/extensions/third-party/bme-desktop/' });
    return { adopted, saved, calls };
}

test('a fresh extension adopts the URL and token the installer wrote beside it', async () => {
    const settings = { bridgeUrl: 'http://127.0.0.1:7317', token: '' };
    const { adopted, saved, calls } = await adopt(settings, FILE);
    assert.equal(adopted, true);
    assert.equal(saved, 1);
    assert.deepEqual(calls, [`http://st.local/scripts/extensions/third-party/bme-desktop/${CONNECTION_FILE}`]);
    assert.equal(settings.token, TOKEN);
    assert.equal(settings.bridgeUrl, 'http://127.0.0.1:7317');
    assert.equal(settings.pairedAt, 1000);
});

test('a token typed after pairing is kept until the installer writes a newer file', async () => {
    const settings = { bridgeUrl: 'http://127.0.0.1:9000', token: 'typed-by-hand-token-000000', pairedAt: 1000 };
    assert.equal((await adopt(settings, FILE)).adopted, false);
    assert.equal(settings.token, 'typed-by-hand-token-000000');
    const newer = await adopt(settings, { ...FILE, token: `${TOKEN}-rotated`, written_at: 2000 });
    assert.equal(newer.adopted, true);
    assert.equal(settings.token, `${TOKEN}-rotated`);
    assert.equal(settings.pairedAt, 2000);
});

test('no file, a broken file or a malformed connection changes nothing', async () => {
    for (const [body, opts] of [[FILE, { status: 404 }], ['{not json', {}], [new Error('offline'), {}],
        [{ ...FILE, token: 'short' }, {}], [{ ...FILE, url: 'javascript:alert(1)' }, {}],
        [{ ...FILE, written_at: 'yesterday' }, {}], [[FILE], {}]]) {
        const settings = { bridgeUrl: 'http://127.0.0.1:7317', token: '' };
        const { adopted, saved } = await adopt(settings, body, opts);
        assert.equal(adopted, false);
        assert.equal(saved, 0);
        assert.deepEqual(settings, { bridgeUrl: 'http://127.0.0.1:7317', token: '' });
    }
});

test('parseConnection trims the trailing slash and refuses tokens with spaces', () => {
    assert.deepEqual(parseConnection(FILE), { url: 'http://127.0.0.1:7317', token: TOKEN, writtenAt: 1000 });
    assert.equal(parseConnection({ ...FILE, token: 'has a space in the middle!!' }), null);
});
