// BME Desktop Memory — SillyTavern companion extension (entry point).
// Binds the browser-independent logic in lib/core.js to SillyTavern's context.

import { createBme } from './lib/core.js';
import { LOG_PREFIX } from './lib/constants.js';
import { detectLocale, setLocale, t } from './lib/i18n.js';
import { adoptInstallerConnection } from './lib/pairing.js';

/** The text in SillyTavern's send box: the user's message before it enters `chat`. */
function readPendingInput() {
    const el = globalThis.document?.getElementById('send_textarea');
    return el ? String(el.value ?? '') : '';
}

/** SillyTavern shows its stop button while it generates (script.js showStopButton / hideStopButton). */
function stopButtonShown() {
    const el = globalThis.document?.getElementById('mes_stop');
    if (!el) return false;
    return globalThis.getComputedStyle ? globalThis.getComputedStyle(el).display !== 'none' : el.style.display !== 'none';
}

/**
 * SillyTavern's generateRaw: on the context in newer versions; in 1.12.x only as an export of
 * script.js (path relative to /scripts/extensions/third-party/<folder>/index.js).
 */
async function findGenerateRaw(sillyTavern) {
    if (typeof sillyTavern.getContext().generateRaw === 'function') return () => sillyTavern.getContext().generateRaw;
    try {
        const script = await import('../../../../script.js');
        if (typeof script.generateRaw === 'function') return () => script.generateRaw;
    } catch (err) {
        console.warn(`${LOG_PREFIX} SillyTavern's generateRaw cannot be loaded; its model is not lent:`, err?.message ?? err);
    }
    return () => null;
}

/**
 * The selected persona's id (its avatar key, SillyTavern's `user_avatar`): a live export of
 * personas.js in current versions, of script.js in 1.12.x; the context's when it has one.
 */
async function findPersonaId(sillyTavern) {
    const modules = [];
    for (const path of ['../../../personas.js', '../../../../script.js']) {
        try { modules.push(await import(path)); } catch { /* not in this version */ }
    }
    return () => {
        const ctx = sillyTavern.getContext();
        const fromContext = ctx.userAvatar ?? ctx.user_avatar;
        if (typeof fromContext === 'string' && fromContext) return fromContext;
        const found = modules.map((m) => m.user_avatar).find((v) => typeof v === 'string' && v);
        return found;
    };
}

/**
 * The open chat's World Info entries as SillyTavern resolves them for a generation: global
 * books, the character's books and the chat's book (world-info.js getSortedEntries, an export
 * since 1.12). Null when this SillyTavern has no such function.
 */
async function findLorebookEntries() {
    try {
        const worldInfo = await import('../../../world-info.js');
        if (typeof worldInfo.getSortedEntries === 'function') return () => worldInfo.getSortedEntries();
    } catch (err) {
        console.warn(`${LOG_PREFIX} SillyTavern's world-info.js cannot be loaded; lorebooks are not sent:`, err?.message ?? err);
    }
    return async () => null;
}

export async function start(sillyTavern = globalThis.SillyTavern) {
    if (typeof sillyTavern?.getContext !== 'function') {
        console.error(`${LOG_PREFIX} SillyTavern.getContext() is missing: this SillyTavern is too old for BME Desktop Memory.`);
        return null;
    }
    setLocale(detectLocale(globalThis)); // SillyTavern's language: English or Simplified Chinese
    // getContext() returns a new snapshot each call: never cache it.
    const generateRaw = await findGenerateRaw(sillyTavern);
    const getPersonaId = await findPersonaId(sillyTavern);
    const getLorebookEntries = await findLorebookEntries();
    const bme = createBme({
        getContext: () => sillyTavern.getContext(), readPendingInput, generateRaw, isGenerating: stopButtonShown,
        getPersonaId, getLorebookEntries,
    });
    try { // `bme-desktop sillytavern install` left the bridge's address and token beside us
        if (await adoptInstallerConnection({ settings: bme.settings(), save: bme.saveSettings,
            fetch: globalThis.fetch.bind(globalThis), base: new URL('./', import.meta.url) })) {
            globalThis.toastr?.success?.(t('Connected to BME Desktop by its installer.'));
        }
    } catch (err) {
        console.warn(`${LOG_PREFIX} cannot read the installer's connection:`, err);
    }
    try {
        bme.bind();
    } catch (err) {
        console.error(`${LOG_PREFIX} cannot bind to SillyTavern events:`, err);
        return null;
    }

    try {
        const { mountSettings, mountRecallViews } = await import('./lib/ui.js');
        const container = document.getElementById('extensions_settings') ?? document.getElementById('extensions_settings2');
        if (container) {
            const response = await fetch(new URL('./settings.html', import.meta.url), { cache: 'no-cache' });
            mountSettings(bme, { document, container, html: await response.text() });
        } else {
            console.warn(`${LOG_PREFIX} no #extensions_settings container: settings panel not shown`);
        }
        mountRecallViews(bme, { document, MutationObserver: globalThis.MutationObserver });
    } catch (err) {
        console.error(`${LOG_PREFIX} cannot show the settings panel:`, err);
    }

    // While the user types, let the bridge get the recall ready (debounced in core.js).
    const sendBox = globalThis.document?.getElementById('send_textarea');
    sendBox?.addEventListener('input', () => bme.handlers.onTyping(sendBox.value));

    // Extensions load before the first chat opens, but if one is open already, sync it.
    try {
        if (bme.currentChatId()) bme.handlers.onChatChanged();
    } catch (err) {
        console.error(`${LOG_PREFIX} initial sync failed:`, err);
    }
    console.info(`${LOG_PREFIX} BME Desktop Memory loaded`);
    return bme;
}

if (globalThis.SillyTavern && globalThis.document) {
    if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', () => { start(); });
    else start();
}
