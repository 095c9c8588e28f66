// Browser-only glue: the settings panel, the badge and the recall shown under
// user messages. All logic lives in core.js; this file only reads and writes
// the DOM. Text from the bridge is always set with textContent, never as HTML.

import { LOG_PREFIX } from './constants.js';
import { badgeText } from './status.js';
import { localizeHtml, t, tn } from './i18n.js';

/** [element id, settings key, kind, is it a connection setting] */
const FIELDS = [
    ['bme_enabled', 'enabled', 'checkbox', true],
    ['bme_bridge_url', 'bridgeUrl', 'text', true],
    ['bme_token', 'token', 'text', true],
    ['bme_position', 'position', 'select', false],
    ['bme_depth', 'depth', 'number', false],
    ['bme_top_k', 'topK', 'number', false],
    ['bme_budget', 'budgetTokens', 'number', false],
    ['bme_timeout', 'timeoutMs', 'number', false],
    ['bme_show_recall', 'showRecallUnderMessages', 'checkbox', false],
    ['bme_send_lorebook', 'sendLorebook', 'checkbox', false],
    ['bme_lend_model', 'lendModel', 'checkbox', false],
    ['bme_lend_jobs', 'lendJobsPerMinute', 'number', false],
    ['bme_lend_reply', 'lendMaxTokens', 'number', false],
    ['bme_lend_prompt', 'lendMaxPromptTokens', 'number', false],
];

const NOT_IN_USE = {
    endpoint: () => t('BME Desktop uses its own model endpoint'),
    off_in_app: () => t('switched off in BME Desktop (Settings → Language model)'),
};

/** One line under the memory-model switch: is SillyTavern's model lent, used, how did the jobs go. */
export function lendingText(state, settings) {
    if (!settings.enabled || !settings.lendModel) return t('not lent');
    if (!state.offered) return t('offered once the bridge is connected');
    if (!state.inUse) return t('offered; BME Desktop does not use it: {reason}', { reason: (NOT_IN_USE[state.reason] ?? (() => state.reason))() });
    return t('BME Desktop uses the SillyTavern model · {done} done, {failed} fell back', { done: state.done, failed: state.failed });
}

/** Insert the settings panel (in the current language) into `container` and bind it to `bme`. */
export function mountSettings(bme, { document, container, html }) {
    const wrapper = document.createElement('div');
    wrapper.innerHTML = localizeHtml(html); // our own template, shipped with the extension
    container.append(...wrapper.childNodes);
    const $ = (id) => document.getElementById(id);

    const s = bme.settings();
    for (const [id, key, kind] of FIELDS) {
        const el = $(id);
        if (!el) continue;
        if (kind === 'checkbox') el.checked = Boolean(s[key]);
        else el.value = String(s[key] ?? '');
        const eventName = kind === 'checkbox' || kind === 'select' ? 'change' : 'input';
        el.addEventListener(eventName, () => onFieldChanged(bme, $));
        if (kind === 'number') el.addEventListener('change', () => { el.value = String(bme.settings()[key]); });
    }

    $('bme_token_show')?.addEventListener('click', () => {
        const input = $('bme_token');
        if (input) input.type = input.type === 'password' ? 'text' : 'password';
    });

    // Whether the line under "Test connection" shows a failure: once the bridge answers
    // again it must not keep saying that it cannot be reached.
    let failureShown = false;
    const testButton = $('bme_test');
    testButton?.addEventListener('click', async () => {
        setMessage($, t('testing…'));
        const result = await bme.testConnection();
        setMessage($, result.ok ? `✓ ${result.message}` : `✗ ${result.message}`);
        failureShown = !result.ok;
    });

    const render = (status) => {
        const badge = $('bme_badge');
        if (badge) {
            badge.dataset.state = status.state;
            badge.textContent = badgeText(status);
            badge.title = status.message || t('BME Desktop bridge status');
        }
        if (status.message && (status.state === 'error' || status.state === 'offline')) {
            setMessage($, status.message);
            failureShown = true;
        } else if (failureShown && (status.state === 'connected' || status.state === 'extracting' || status.state === 'disabled')) {
            setMessage($, status.state === 'disabled' ? '' : `✓ ${status.message || t('connected')}`);
            failureShown = false;
        }
    };
    bme.status.subscribe(render);
    render(bme.status.get());

    const renderLending = (state) => {
        const el = $('bme_lend_status');
        if (el) el.textContent = lendingText(state, bme.settings());
    };
    bme.modelJobs?.onChange(renderLending);
    if (bme.modelJobs) renderLending(bme.modelJobs.state());
}

let connectionTimer = null;

function onFieldChanged(bme, $) {
    const s = bme.settings();
    let typed = false; // URL or token: one event per key, so let it settle
    let toggled = false; // enabled switched: apply at once
    for (const [id, key, kind, isConnection] of FIELDS) {
        const el = $(id);
        if (!el) continue;
        const before = s[key];
        if (kind === 'checkbox') s[key] = el.checked;
        else if (kind === 'number') s[key] = Number(el.value);
        else s[key] = String(el.value).trim();
        if (isConnection && before !== s[key]) {
            if (kind === 'checkbox') toggled = true;
            else typed = true;
        }
    }
    bme.settings(); // re-applies defaults and clamps numbers
    clearTimeout(connectionTimer);
    if (typed && !toggled) {
        connectionTimer = setTimeout(() => bme.settingsChanged({ connectionChanged: true }), 800);
        bme.saveSettings();
    } else {
        bme.settingsChanged({ connectionChanged: typed || toggled });
    }
}

function setMessage($, text) {
    const el = $('bme_message');
    if (el) el.textContent = text;
}

// ----- recall under each user message -------------------------------------------

/**
 * Add a "memory" toggle under each user message in `#chat`. Opening it loads the
 * recall kept for that message (GET /recall/{index}); it can be edited (PUT) or
 * removed (DELETE).
 */
export function mountRecallViews(bme, { document, MutationObserver }) {
    const chatEl = document.getElementById('chat');
    if (!chatEl) return;

    const decorate = () => {
        if (!bme.settings().showRecallUnderMessages || !bme.settings().enabled) {
            chatEl.querySelectorAll('.bme-recall').forEach((el) => el.remove());
            return;
        }
        for (const mes of chatEl.querySelectorAll('.mes[is_user="true"]')) {
            const block = mes.querySelector('.mes_block') ?? mes;
            const index = Number.parseInt(mes.getAttribute('mesid') ?? '', 10);
            const existing = block.querySelector(':scope > .bme-recall');
            if (!Number.isFinite(index)) continue;
            if (existing && existing.dataset.index === String(index)) continue;
            existing?.remove();
            block.append(createRecallView(bme, document, index));
        }
    };

    let scheduled = false;
    const schedule = () => {
        if (scheduled) return;
        scheduled = true;
        setTimeout(() => { scheduled = false; try { decorate(); } catch (err) { console.error(`${LOG_PREFIX} recall view:`, err); } }, 50);
    };
    if (MutationObserver) new MutationObserver(schedule).observe(chatEl, { childList: true });
    bme.onRecall(({ index }) => {
        // refresh an open view for that message
        const view = chatEl.querySelector(`.mes[mesid="${index}"] .bme-recall`);
        if (view?.classList.contains('open')) view.querySelector('.bme-recall-toggle')?.dispatchEvent(new Event('refresh'));
        schedule();
    });
    bme.status.subscribe(schedule);
    schedule();
}

function createRecallView(bme, document, index) {
    const root = document.createElement('div');
    root.className = 'bme-recall';
    root.dataset.index = String(index);
    const toggle = document.createElement('div');
    toggle.className = 'bme-recall-toggle';
    toggle.textContent = t('🧠 memory');
    toggle.title = t('Show the memories recalled for this message (BME Desktop)');
    const body = document.createElement('div');
    body.className = 'bme-recall-body';
    body.hidden = true;
    root.append(toggle, body);

    const load = async () => {
        body.replaceChildren(textNode(document, t('loading…')));
        try {
            const kept = await bme.getRecall(index);
            showRecall(bme, document, body, index, kept);
        } catch (err) {
            body.replaceChildren(textNode(document, err?.kind === 'not_found'
                ? t('No memories were recalled for this message.')
                : t('Cannot load the recall: {message}', { message: err?.message ?? err })));
        }
    };
    toggle.addEventListener('click', () => {
        const open = !root.classList.contains('open');
        root.classList.toggle('open', open);
        body.hidden = !open;
        if (open) load();
    });
    toggle.addEventListener('refresh', load);
    return root;
}

function showRecall(bme, document, body, index, kept) {
    const nodes = Array.isArray(kept?.nodes) ? kept.nodes : [];
    const info = document.createElement('div');
    info.textContent = tn(nodes.length, '{n} memory', '{n} memories')
        + (kept?.token_estimate ? t(', ~{n} tokens', { n: kept.token_estimate }) : '')
        + (kept?.manually_edited ? t(' · edited by hand') : '');
    const area = document.createElement('textarea');
    area.className = 'text_pole';
    area.value = typeof kept?.injection === 'string' ? kept.injection : '';
    const actions = document.createElement('div');
    actions.className = 'bme-recall-actions';
    const save = button(document, t('Save'), t('Replace the injection kept for this message (PUT)'));
    const remove = button(document, t('Delete'), t('Remove the recall kept for this message (DELETE)'));
    const note = document.createElement('span');
    actions.append(save, remove, note);
    save.addEventListener('click', async () => {
        try { await bme.putRecall(index, area.value); note.textContent = t('saved'); } catch (err) { note.textContent = t('failed: {message}', { message: err?.message ?? err }); }
    });
    remove.addEventListener('click', async () => {
        try { await bme.deleteRecall(index); body.replaceChildren(textNode(document, t('Deleted.'))); } catch (err) { note.textContent = t('failed: {message}', { message: err?.message ?? err }); }
    });
    body.replaceChildren(info, area, actions);
}

function button(document, label, title) {
    const el = document.createElement('div');
    el.className = 'menu_button';
    el.textContent = label;
    el.title = title;
    return el;
}

function textNode(document, text) {
    const el = document.createElement('div');
    el.textContent = text;
    return el;
}
