// Pop-up notices: one per outage and one when memory is back; memories held for review,
// said once. The reconnect probe runs on timers the tests fire by hand.

import { test, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { startFakeBridge, setup, manualTimers, recordingToastr } from './helpers.js';
import { badgeText, createStatus } from '../lib/status.js';
import { createNotices } from '../lib/notices.js';
import { setLocale } from '../lib/i18n.js';

const RECONNECT_MS = 15000;

let bridge;
before(async () => { bridge = await startFakeBridge(); });
after(async () => { await bridge.close(); });
beforeEach(() => { bridge.requests.length = 0; bridge.handler = null; bridge.kept.clear(); });

function connect({ settings = {} } = {}) {
    const timers = manualTimers();
    const toastr = recordingToastr();
    const out = setup({
        bridgeUrl: bridge.url, token: bridge.token, settings, coreOptions: { reconnectMs: RECONNECT_MS, timers, toastr },
    });
    return { ...out, timers, toastr };
}

async function send(st, text = 'Hello') {
    st.pendingInput = text;
    await st.emit('GENERATION_AFTER_COMMANDS', undefined, {}, false);
}

const down = () => { bridge.handler = () => ({ destroy: true }); }; // every connection drops
const up = () => { bridge.handler = null; };
const levels = (toastr) => toastr.shown.map((s) => s.level);

test('an outage pops up one notice, however many calls fail, and one when memory is back', async () => {
    const { st, bme, timers, toastr } = connect();
    down();
    await send(st);
    await send(st, 'Still there?');
    await st.emit('MESSAGE_SENT', 3);
    await bme.syncIdle();
    assert.equal(bme.status.get().state, 'offline');
    assert.deepEqual(levels(toastr), ['warning']);
    assert.match(toastr.shown[0].message, /^Memory offline: BME Desktop cannot be reached/);
    assert.equal(toastr.shown[0].title, 'BME Desktop Memory');

    // the probe fails a few times: still the same outage
    for (let i = 0; i < 3; i++) assert.equal(await timers.run(RECONNECT_MS), 1);
    assert.deepEqual(levels(toastr), ['warning']);

    up();
    assert.equal(await timers.run(RECONNECT_MS), 1);
    await bme.syncIdle();
    assert.equal(bme.status.get().state, 'connected');
    assert.deepEqual(levels(toastr), ['warning', 'success']);
    assert.equal(toastr.shown[1].message, 'Memory is back: BME Desktop answers again.');
    assert.deepEqual(timers.delays().filter((ms) => ms === RECONNECT_MS), [], 'no probe left once it is back');

    await send(st);
    assert.deepEqual(levels(toastr), ['warning', 'success'], 'a normal turn pops up nothing');

    down();
    await send(st);
    assert.deepEqual(levels(toastr), ['warning', 'success', 'warning'], 'the next outage is announced again');
    bme.dispose();
});

test('a wrong token is an error in the badge, not an outage pop-up', async () => {
    const { st, bme, toastr } = connect({ settings: { token: 'wrong' } });
    await send(st);
    assert.equal(bme.status.get().state, 'error');
    assert.deepEqual(toastr.shown, []);
    bme.dispose();
});

test('switching memory off during an outage ends it without a "back" pop-up', async () => {
    const { st, bme, toastr } = connect();
    down();
    await send(st);
    bme.settings().enabled = false;
    bme.settingsChanged();
    up();
    bme.settings().enabled = true;
    bme.settingsChanged();
    await send(st);
    assert.equal(bme.status.get().state, 'connected');
    assert.deepEqual(levels(toastr), ['warning']);
    bme.dispose();
});

test('without toastr (tests, an old SillyTavern) notices are skipped, and a failing toastr breaks nothing', () => {
    const status = createStatus();
    const quiet = createNotices({ status, toastr: null });
    const broken = createNotices({ status, toastr: { warning() { throw new Error('no DOM'); } }, logger: { warn() {} } });
    status.set({ state: 'offline' });
    status.set({ state: 'connected' });
    assert.equal(quiet.inOutage(), false);
    assert.equal(broken.inOutage(), false);
    quiet.info('nothing happens');
});

test('pop-ups are in Chinese when SillyTavern is', () => {
    setLocale('zh');
    try {
        const status = createStatus();
        const toastr = recordingToastr();
        createNotices({ status, toastr });
        status.set({ state: 'offline' });
        status.set({ state: 'connected' });
        assert.deepEqual(toastr.shown.map((s) => s.message), [
            '记忆离线：无法连接 BME Desktop。在它恢复之前，回复将不带新的记忆继续生成。',
            '记忆已恢复：BME Desktop 重新应答了。',
        ]);
    } finally {
        setLocale('en');
    }
});

// ----- memories held for review (strict review gate) -----------------------------------

function recallAnswers(...helds) {
    const queue = [...helds];
    bridge.handler = (r) => {
        if (!r.url.endsWith('/recall')) return null;
        const held = queue.length > 1 ? queue.shift() : queue[0];
        const body = { ...bridge.recallAnswer };
        if (held !== undefined) body.held_for_review = held;
        return { body };
    };
}

test('memories held for review are said once, in the status and one pop-up, not on every turn', async () => {
    const { st, bme, toastr } = connect();
    recallAnswers(3, 3, 4);
    await send(st);
    assert.equal(bme.status.get().message, '3 memories held for review — approve them in BME Desktop');
    assert.equal(bme.status.get().lastRecall.held, 3);
    assert.equal(badgeText(bme.status.get()), 'connected · last recall: 2 nodes · 3 held for review');
    assert.deepEqual(toastr.shown.map((s) => [s.level, s.message]),
        [['info', '3 memories held for review — approve them in BME Desktop']]);

    await send(st, 'And now?');
    await send(st, 'And then?');
    assert.equal(bme.status.get().message, '', 'later turns do not repeat it');
    assert.equal(bme.status.get().lastRecall.held, 4);
    assert.equal(badgeText(bme.status.get()), 'connected · last recall: 2 nodes · 4 held for review', 'the badge keeps the count');
    assert.equal(toastr.shown.length, 1);
    bme.dispose();
});

test('once nothing is held any more, the next held memory is said again; one memory is singular', async () => {
    const { st, bme, toastr } = connect();
    recallAnswers(2, 0, 1);
    await send(st);
    await send(st);
    assert.equal(bme.status.get().lastRecall.held, 0);
    await send(st);
    assert.equal(bme.status.get().message, '1 memory held for review — approve it in BME Desktop');
    assert.deepEqual(toastr.shown.map((s) => s.message), [
        '2 memories held for review — approve them in BME Desktop',
        '1 memory held for review — approve it in BME Desktop',
    ]);
    bme.dispose();
});

test('each chat is told about its own held memories', async () => {
    const { st, bme, toastr } = connect();
    recallAnswers(2);
    await send(st);
    st.chatId = 'second chat';
    await st.emit('CHAT_CHANGED', st.chatId);
    await send(st);
    assert.equal(toastr.shown.length, 2);
    bme.dispose();
});

test('an older bridge without held_for_review, or a nonsense value, counts as nothing held', async () => {
    const { st, bme, toastr } = connect();
    for (const held of [undefined, null, -2, 1.5, '3']) {
        recallAnswers(held);
        await send(st);
        assert.equal(bme.status.get().lastRecall.held, 0, String(held));
    }
    assert.equal(bme.status.get().message, '');
    assert.deepEqual(toastr.shown, []);
    bme.dispose();
});
