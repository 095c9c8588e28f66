// Pop-up notices (SillyTavern's toastr) for what the user must know even with the
// Extensions drawer closed: one when memory goes offline, one when it is back, and
// one-off information such as memories held for review. Never a storm: however many
// calls fail during one outage, it is announced once.

import { t } from './i18n.js';

const HEALTHY = new Set(['connected', 'extracting']);

/**
 * @param {object} deps
 * @param {{subscribe: Function, get: Function}} deps.status
 * @param {object|null} deps.toastr  SillyTavern's global `toastr` (null: no pop-ups)
 * @param {object} [deps.logger]
 */
export function createNotices({ status, toastr, logger = console }) {
    /** An outage lasts from the first "offline" until a call succeeds again. */
    let outage = false;

    function show(level, message) {
        const fn = toastr?.[level];
        if (typeof fn !== 'function') return;
        try {
            fn.call(toastr, message, t('BME Desktop Memory'), { preventDuplicates: true });
        } catch (err) {
            try { logger.warn?.('[BME] toast failed:', err?.message ?? err); } catch { /* never throw */ }
        }
    }

    const unsubscribe = status.subscribe((s) => {
        if (s.state === 'offline') {
            if (!outage) {
                outage = true;
                show('warning', t('Memory offline: BME Desktop cannot be reached. Replies go on without new memories until it is back.'));
            }
        } else if (HEALTHY.has(s.state)) {
            if (outage) {
                outage = false;
                show('success', t('Memory is back: BME Desktop answers again.'));
            }
        } else if (s.state === 'disabled') {
            outage = false; // switched off by the user: nothing is missing any more
        }
    });

    return {
        info: (message) => show('info', message),
        inOutage: () => outage,
        dispose: unsubscribe,
    };
}
