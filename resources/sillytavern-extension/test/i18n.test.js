// Every user-visible string exists in English and Simplified Chinese.

import { test, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, readdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { TRANSLATIONS, detectLocale, setLocale, getLocale, t, tn, localizeHtml, htmlTexts } from '../lib/i18n.js';
import { badgeText, statusForError } from '../lib/status.js';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const ZH = TRANSLATIONS.zh;

afterEach(() => { setLocale('en'); });

/** The English strings the code passes to t() and tn(), with where they are. */
async function sourceStrings() {
    const files = ['index.js', ...(await readdir(path.join(root, 'lib'))).filter((f) => f.endsWith('.js') && f !== 'i18n.js').map((f) => `lib/${f}`)];
    const found = [];
    for (const file of files) {
        const text = await readFile(path.join(root, file), 'utf8');
        assert.doesNotMatch(text, /\bt\(\s*`/, `${file}: t() takes a plain string with {placeholders}, not a template literal`);
        for (const [, s] of text.matchAll(/\bt\(\s*'((?:[^'\\]|\\.)*)'/g)) found.push([file, s]);
        for (const [, one, many] of text.matchAll(/\btn\([^,()]+,\s*'((?:[^'\\]|\\.)*)',\s*'((?:[^'\\]|\\.)*)'/g)) {
            found.push([file, one], [file, many]);
        }
    }
    return found;
}

const placeholders = (s) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

test('every string the code shows has its Simplified Chinese, with the same placeholders', async () => {
    const strings = await sourceStrings();
    assert.ok(strings.length > 40, `found only ${strings.length} strings: is the scan broken?`);
    for (const [file, s] of strings) {
        assert.ok(Object.hasOwn(ZH, s), `${file}: no Chinese for ${JSON.stringify(s)}`);
        assert.deepEqual(placeholders(ZH[s]), placeholders(s), `${file}: placeholders differ for ${JSON.stringify(s)}`);
    }
});

test('every text of the settings panel has its Simplified Chinese', async () => {
    const html = await readFile(path.join(root, 'settings.html'), 'utf8');
    const texts = htmlTexts(html);
    assert.ok(texts.includes('Test connection') && texts.includes('Bridge token'), 'the scan finds the panel texts');
    for (const text of texts) assert.ok(Object.hasOwn(ZH, text), `settings.html: no Chinese for ${JSON.stringify(text)}`);
    for (const value of Object.values(ZH)) assert.doesNotMatch(value, /[<>"]/, 'a translation must not break the template');
});

test('the Chinese table has no strings the code no longer uses', async () => {
    const used = new Set((await sourceStrings()).map(([, s]) => s));
    for (const text of htmlTexts(await readFile(path.join(root, 'settings.html'), 'utf8'))) used.add(text);
    for (const key of Object.keys(ZH)) assert.ok(used.has(key), `unused translation: ${JSON.stringify(key)}`);
});

test('the language follows SillyTavern: its localStorage "language", else the browser', () => {
    const env = (stored, browser) => ({
        localStorage: { getItem: (key) => (key === 'language' ? stored : null) },
        navigator: { language: browser },
    });
    assert.equal(detectLocale(env('zh-cn', 'en-US')), 'zh');
    assert.equal(detectLocale(env('zh-tw', 'en-US')), 'zh');
    assert.equal(detectLocale(env('en', 'zh-CN')), 'en');
    assert.equal(detectLocale(env(null, 'zh-CN')), 'zh');
    assert.equal(detectLocale(env(null, 'zh_CN')), 'zh');
    assert.equal(detectLocale(env(null, 'zu')), 'en');
    assert.equal(detectLocale(env('ja-jp', 'zh-CN')), 'en');
    assert.equal(detectLocale({ localStorage: { getItem() { throw new Error('denied'); } }, navigator: { language: 'zh' } }), 'zh');
    assert.equal(detectLocale({}), 'en');
});

test('in Chinese the badge, the status, the plural forms and the panel are Chinese', async () => {
    assert.equal(setLocale('zh'), 'zh');
    assert.equal(getLocale(), 'zh');
    assert.equal(badgeText({ state: 'offline' }), '离线');
    assert.equal(badgeText({ state: 'connected', lastRecall: { nodes: 2 } }), '已连接 · 上次召回：2 条记忆');
    assert.match(statusForError({ kind: 'unauthorized', message: 'HTTP 401' }).message, /^令牌错误或缺失：HTTP 401$/);
    assert.equal(tn(3, '{n} memory held for review — approve it in BME Desktop', '{n} memories held for review — approve them in BME Desktop'),
        '3 条记忆等待审核，未被注入——请在 BME Desktop 中通过');
    const html = localizeHtml(await readFile(path.join(root, 'settings.html'), 'utf8'));
    assert.match(html, />测试连接</);
    assert.match(html, /placeholder="在此粘贴令牌"/);
    assert.match(html, /（运行 <code>bme-desktop token<\/code> 或从应用中复制）/);
    assert.doesNotMatch(html, /Test connection|Bridge token|Recall timeout/);
    assert.match(html, /id="bme_test"/, 'ids and attributes other than title and placeholder are left alone');
});

test('in English nothing changes, and unknown strings pass through with their placeholders filled', async () => {
    const raw = await readFile(path.join(root, 'settings.html'), 'utf8');
    assert.equal(localizeHtml(raw), raw);
    assert.equal(t('cannot reach the bridge at {url} ({detail})', { url: 'http://x', detail: 'refused' }),
        'cannot reach the bridge at http://x (refused)');
    assert.equal(t('not in the table {x}', { x: 1 }), 'not in the table 1');
    assert.equal(setLocale('fr'), 'en', 'an unsupported language falls back to English');
});
