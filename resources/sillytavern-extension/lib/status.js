// The connection status shown in the badge. A tiny observable store.

/**
 * state: 'idle' (nothing tried yet) | 'disabled' | 'connected' | 'extracting'
 *        | 'offline' (bridge down or too slow) | 'error' (wrong token, refused, bad answer)
 */
export function createStatus() {
    let current = { state: 'idle', message: 'not connected yet', lastRecall: null, updatedAt: Date.now() };
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
    if (kind === 'unauthorized') return { state: 'error', message: `wrong or missing token: ${message}` };
    if (kind === 'forbidden') return { state: 'error', message: `origin refused by the bridge: ${message}` };
    return { state: 'error', message };
}

const LABELS = {
    idle: 'not connected',
    disabled: 'disabled',
    connected: 'connected',
    extracting: 'extracting',
    offline: 'offline',
    error: 'error',
};

/** Short text for the badge, e.g. "connected · last recall: 5 nodes". */
export function badgeText(status) {
    let text = LABELS[status?.state] ?? String(status?.state ?? '');
    const recall = status?.lastRecall;
    if (recall && (status.state === 'connected' || status.state === 'extracting')) {
        text += ` · last recall: ${recall.nodes} node${recall.nodes === 1 ? '' : 's'}`;
    }
    return text;
}
