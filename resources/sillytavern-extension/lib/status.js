// The connection status shown in the badge. A tiny observable store.

import { t, tn } from './i18n.js';

/**
 * state: 'idle' (nothing tried yet) | 'disabled' | 'connected' | 'extracting'
 *        | 'offline' (bridge down or too slow) | 'error' (wrong token, refused, bad answer)
 */
export function createStatus() {
    let current = { state: 'idle', message: t('not connected yet'), lastRecall: null, updatedAt: Date.now() };
    const listeners = new Set();
    return {
        get() { return current; },
        set(patch) {
            current = { ...current, ...patch, updatedAt: Date.now() };
            for (const fn of listeners) {
                try { fn(current); } catch { /* a broken listener must not break the others */ }
            }
            return current;
        },
        subscribe(fn) {
            listeners.add(fn);
            return () => listeners.delete(fn);
        },
    };
}

/** Status patch for a failed bridge call. */
export function statusForError(err) {
    const kind = err?.kind ?? 'error';
    const message = err?.message ?? String(err);
    if (kind === 'offline' || kind === 'timeout') return { state: 'offline', message };
    if (kind === 'unauthorized') return { state: 'error', message: t('wrong or missing token: {message}', { message }) };
    if (kind === 'forbidden') return { state: 'error', message: t('origin refused by the bridge: {message}', { message }) };
    return { state: 'error', message };
}

const LABELS = {
    idle: () => t('not connected'),
    disabled: () => t('disabled'),
    connected: () => t('connected'),
    extracting: () => t('extracting'),
    offline: () => t('offline'),
    error: () => t('error'),
};

/**
 * Short text for the badge, e.g. "connected · last recall: 5 nodes" (and "· 2 held for
 * review" while the strict review gate holds memories back), or, when a failed recall fell
 * back to the one kept for the message, "offline · kept recall: 3 nodes".
 */
export function badgeText(status) {
    const label = Object.hasOwn(LABELS, status?.state ?? '') ? LABELS[status.state] : null;
    let text = label ? label() : String(status?.state ?? '');
    const recall = status?.lastRecall;
    if (recall?.kept) {
        text += tn(recall.nodes, ' · kept recall: {n} node', ' · kept recall: {n} nodes');
    } else if (recall && (status.state === 'connected' || status.state === 'extracting')) {
        text += tn(recall.nodes, ' · last recall: {n} node', ' · last recall: {n} nodes');
        if (recall.held > 0) text += t(' · {n} held for review', { n: recall.held });
    }
    return text;
}

/** "extracting memories: 2,140 of 10,000 messages · about 3 min" from an extraction.progress event. */
export function progressText(progress) {
    const count = (n) => Number(n ?? 0).toLocaleString('en-US');
    let text = t('extracting memories: {done} of {total} messages',
        { done: count(progress?.extracted), total: count(progress?.total) });
    const eta = Number(progress?.eta_s);
    if (Number.isFinite(eta) && eta > 0) {
        text += eta >= 90 ? t(' · about {n} min', { n: Math.round(eta / 60) }) : t(' · about {n} s', { n: Math.round(eta) });
    }
    return text;
}
