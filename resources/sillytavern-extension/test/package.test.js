// The folder is a valid, self-contained SillyTavern third-party extension.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, readdir } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

test('manifest has the fields SillyTavern reads, with requires as an array', async () => {
    const manifest = JSON.parse(await readFile(path.join(root, 'manifest.json'), 'utf8'));
    assert.ok(Array.isArray(manifest.requires), 'without an array `requires` SillyTavern silently skips the extension');
    assert.deepEqual(manifest.requires, []);
    assert.deepEqual(manifest.optional, []);
    for (const key of ['display_name', 'js', 'css', 'author', 'version', 'homePage']) assert.equal(typeof manifest[key], 'string', key);
    assert.equal(typeof manifest.loading_order, 'number');
    assert.ok(existsSync(path.join(root, manifest.js)));
    assert.ok(existsSync(path.join(root, manifest.css)));
});

test('every relative import resolves inside the folder (self-contained)', async () => {
    const files = ['index.js', ...(await readdir(path.join(root, 'lib'))).map((f) => `lib/${f}`)];
    for (const file of files) {
        const text = await readFile(path.join(root, file), 'utf8');
        for (const [, spec] of text.matchAll(/(?:from|import\()\s*['"]([^'"]+)['"]/g)) {
            // host modules, each loaded in a try: SillyTavern's own script.js (generateRaw in 1.12.x)
            // and world-info.js (getSortedEntries: the chat's lorebook entries)
            if (file === 'index.js' && ['../../../../script.js', '../../../world-info.js'].includes(spec)) continue;
            assert.ok(spec.startsWith('./') || spec.startsWith('../'), `${file} imports a package: ${spec}`);
            const target = path.resolve(path.dirname(path.join(root, file)), spec);
            assert.ok(target.startsWith(root + path.sep), `${file} reaches outside the folder: ${spec}`);
            assert.ok(existsSync(target), `${file}: ${spec} does not exist`);
        }
    }
});

test('settings.html has every control the panel binds', async () => {
    const html = await readFile(path.join(root, 'settings.html'), 'utf8');
    const ui = await readFile(path.join(root, 'lib/ui.js'), 'utf8');
    const ids = [...ui.matchAll(/\['(bme_[a-z_]+)'/g)].map((m) => m[1]).concat(['bme_badge', 'bme_test', 'bme_message', 'bme_token_show']);
    for (const id of ids) assert.match(html, new RegExp(`id="${id}"`), id);
});

test('index.js can be imported outside SillyTavern without side effects', async () => {
    const mod = await import('../index.js');
    assert.equal(typeof mod.start, 'function');
    assert.equal(await mod.start(undefined), null);
});

test('the browser-only UI module parses and exports its mount functions', async () => {
    const ui = await import('../lib/ui.js');
    assert.equal(typeof ui.mountSettings, 'function');
    assert.equal(typeof ui.mountRecallViews, 'function');
});
