// Live bridge events (GET /v1/events over WebSocket) for the badge: shows
// "extracting" while the bridge works and "connected" when it is done.
// Optional: without a WebSocket implementation it does nothing. Browsers cannot
// set headers on a WebSocket, so the token goes in the first message.

import { LOG_PREFIX } from './constants.js';
import { normalizeBaseUrl } from './client.js';

export function eventsUrl(bridgeUrl) {
    const base = normalizeBaseUrl(bridgeUrl);
    if (!/^https?:\/\//i.test(base)) return null;
    return `${base.replace(/^http/i, 'ws')}/v1/events`;
}

/**
 * `onMessage(message)` sees every message first (model jobs, hello) and returns true when it
 * took it; the rest go to `onEvent` when they concern the current chat. `onOpen` runs once the
 * bridge said hello (the token was accepted), `onClose` when a socket that had opened closes.
 */
export function createEventStream({
    WebSocket, config, currentChatId, onEvent, onMessage = () => false, onOpen = () => {}, onClose = () => {},
    timers, logger, retryMs = 20000,
}) {
    let socket = null;
    let retryTimer = null;
    let wanted = false;
    let ready = null; // the socket the bridge said hello on

    function open() {
        if (!WebSocket || socket) return;
        const { bridgeUrl, token, enabled } = config();
        const url = eventsUrl(bridgeUrl);
        if (!url || !enabled || !token) return;
        let ws;
        try {
            ws = new WebSocket(url);
        } catch (err) {
            logger.warn?.(`${LOG_PREFIX} cannot open the events socket:`, err?.message ?? err);
            retry();
            return;
        }
        socket = ws;
        ws.onopen = () => {
            try { ws.send(JSON.stringify({ token: String(token).trim() })); } catch { /* closed already */ }
        };
        ws.onmessage = (message) => {
            let event;
            try { event = JSON.parse(typeof message.data === 'string' ? message.data : String(message.data)); } catch { return; }
            if (!event || typeof event !== 'object') return;
            if (event.type === 'hello') {
                ready = ws;
                try { onOpen(); } catch (err) { logger.error?.(`${LOG_PREFIX} events socket open handler failed:`, err?.message ?? err); }
                return;
            }
            try { if (onMessage(event)) return; } catch (err) { logger.error?.(`${LOG_PREFIX} message handler failed:`, err?.message ?? err); return; }
            if (event.chat_id !== undefined && event.chat_id !== currentChatId()) return;
            try { onEvent(event); } catch (err) { logger.error?.(`${LOG_PREFIX} event handler failed:`, err?.message ?? err); }
        };
        ws.onerror = () => { /* onclose follows */ };
        ws.onclose = () => {
            if (socket === ws) socket = null;
            if (ready === ws) {
                ready = null;
                try { onClose(); } catch (err) { logger.error?.(`${LOG_PREFIX} events socket close handler failed:`, err?.message ?? err); }
            }
            retry();
        };
    }

    function retry() {
        if (!wanted || retryTimer !== null || !retryMs) return;
        retryTimer = timers.setTimeout(() => { retryTimer = null; if (wanted) open(); }, retryMs);
    }

    return {
        /** Keep a socket open (the chat filter reads the current chat on each event). */
        watch(chatId) {
            if (!WebSocket) return;
            wanted = Boolean(chatId);
            if (wanted) open();
        },
        close() {
            wanted = false;
            if (retryTimer !== null) { timers.clearTimeout(retryTimer); retryTimer = null; }
            const ws = socket;
            socket = null;
            if (ws && ready === ws) {
                ready = null;
                try { onClose(); } catch { /* ignore */ }
            }
            if (ws) { try { ws.close(); } catch { /* ignore */ } }
        },
        isOpen: () => socket !== null,
        /** Send a message on the open, authenticated socket; false when there is none. */
        send(message) {
            const ws = ready;
            if (!ws || ws !== socket) return false;
            try { ws.send(JSON.stringify(message)); return true; } catch { return false; }
        },
    };
}
