// The settings panel's bindings, with a fake DOM built from settings.html's ids.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { startFakeBridge, setup, manualTimers } from './helpers.js';
import { mountSettings } from '../lib/ui.js';
import { setLocale } from '../lib/i18n.js';

let bridge;
before(async () => { bridge = await startFakeBridge(); });
after(async () => { await bridge.close(); });

class FakeElement {
    constructor(id, tag, type) {
        Object.assign(this, { id, tag, type, value: '', checked: false, textContent: '', title: '', dataset: {}, listeners: {} });
    }
    addEventListener(name, fn) { (this.listeners[name] ??= []).push(fn); }
    async fire(name) { for (const fn of this.listeners[name] ?? []) await fn(); }
}

async function fakeDocument() {
    const html = await readFile(new URL('../settings.html', import.meta.url), 'utf8');
    const elements = {};
    for (const [, tag, attrs] of html.matchAll(/<(\w+)([^>]*\sid="[^"]+"[^>]*)>/g)) {
        const id = /\sid="([^"]+)"/.exec(attrs)[1];
        elements[id] = new FakeElement(id, tag, /\stype="([^"]+)"/.exec(attrs)?.[1]);
    }
    return {
        html,
        elements,
        createElement: () => ({ innerHTML: '', childNodes: [] }),
        getElementById: (id) => elements[id] ?? null,
    };
}

test('the panel shows the stored settings and writes changes back', async () => {
    const { st, bme } = setup({ bridgeUrl: bridge.url, token: bridge.token, settings: { depth: 6, position: 'in_prompt' } });
    const document = await fakeDocument();
    mountSettings(bme, { document, container: { append() {} }, html: document.html });
    const el = document.elements;
    assert.equal(el.bme_bridge_url.value, bridge.url);
    assert.equal(el.bme_token.value, bridge.token);
    assert.equal(el.bme_depth.value, '6');
    assert.equal(el.bme_position.value, 'in_prompt');
    assert.equal(el.bme_enabled.checked, true);

    el.bme_depth.value = '12';
    await el.bme_depth.fire('input');
    el.bme_position.value = 'in_chat';
    await el.bme_position.fire('change');
    assert.equal(st.extensionSettings.bme_desktop.depth, 12);
    assert.equal(st.extensionSettings.bme_desktop.position, 'in_chat');
    assert.ok(st.saveCount >= 2);

    el.bme_enabled.checked = false;
    await el.bme_enabled.fire('change');
    assert.equal(st.extensionSettings.bme_desktop.enabled, false);
    assert.equal(el.bme_badge.dataset.state, 'disabled');
});

test('the test button reports the result and the badge follows the status', async () => {
    const { bme } = setup({ bridgeUrl: bridge.url, token: 'wrong' });
    const document = await fakeDocument();
    mountSettings(bme, { document, container: { append() {} }, html: document.html });
    const el = document.elements;
    await el.bme_test.fire('click');
    assert.match(el.bme_message.textContent, /^✗ .*token/);
    assert.equal(el.bme_badge.dataset.state, 'error');

    el.bme_token.value = bridge.token;
    await el.bme_token.fire('input');
    await el.bme_test.fire('click');
    assert.match(el.bme_message.textContent, /^✓ BME Desktop/);
    assert.equal(el.bme_badge.textContent, 'connected');
    await bme.syncIdle();
});

test('after a reconnect the line under "Test connection" no longer says the bridge cannot be reached', async () => {
    const timers = manualTimers();
    const { st, bme } = setup({ bridgeUrl: bridge.url, token: bridge.token, coreOptions: { reconnectMs: 15000, timers } });
    const document = await fakeDocument();
    mountSettings(bme, { document, container: { append() {} }, html: document.html });
    const el = document.elements;

    bridge.handler = () => ({ destroy: true });
    st.pendingInput = 'Hello';
    await st.emit('GENERATION_AFTER_COMMANDS', undefined, {}, false);
    assert.match(el.bme_message.textContent, /cannot reach the bridge/);
    assert.equal(el.bme_badge.dataset.state, 'offline');

    bridge.handler = null;
    assert.equal(await timers.run(15000), 1, 'the reconnect probe was waiting');
    await bme.syncIdle();
    assert.equal(el.bme_badge.dataset.state, 'connected');
    assert.doesNotMatch(el.bme_message.textContent, /cannot reach|no answer/);
    assert.equal(el.bme_message.textContent, '✓ bridge is back');

    // a failed test, then a good one, then the recall that follows: the line keeps the good news
    el.bme_token.value = 'wrong';
    await el.bme_token.fire('input');
    await el.bme_test.fire('click');
    assert.match(el.bme_message.textContent, /^✗ /);
    el.bme_token.value = bridge.token;
    await el.bme_token.fire('input');
    await el.bme_test.fire('click');
    assert.match(el.bme_message.textContent, /^✓ BME Desktop/);
    await st.emit('GENERATION_AFTER_COMMANDS', undefined, {}, false);
    assert.match(el.bme_message.textContent, /^✓ BME Desktop/);
    await bme.syncIdle();
    bme.dispose();
});

test('the panel speaks Chinese when SillyTavern does', async () => {
    setLocale('zh');
    try {
        const { bme } = setup({ bridgeUrl: bridge.url, token: bridge.token });
        let inserted = '';
        const document = await fakeDocument();
        document.createElement = () => ({ set innerHTML(html) { inserted = html; }, childNodes: [] });
        mountSettings(bme, { document, container: { append() {} }, html: document.html });
        assert.match(inserted, />测试连接</);
        assert.equal(document.elements.bme_badge.textContent, '未连接');
        assert.equal(document.elements.bme_badge.title, '尚未连接');
    } finally {
        setLocale('en');
    }
});
