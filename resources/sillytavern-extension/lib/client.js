// A small client for the BME Desktop bridge (protocol 1): fetch + timeout.

import { CLIENT_NAME } from './constants.js';
import { t } from './i18n.js';

/**
 * Why a bridge call failed.
 *  - `offline`: no connection (bridge not running, wrong URL, CORS refusal)
 *  - `timeout`: no answer within the timeout
 *  - `unauthorized`: 401, the token is missing or wrong
 *  - `forbidden`: 403, this page's origin is not allowed by the bridge
 *  - `not_found`, `rate_limited`, `http`: other HTTP errors
 *  - `bad_response`: the answer was not the JSON we expected
 */
export class BridgeError extends Error {
    constructor(kind, message, { status = 0, code = '', retryAfter = 0 } = {}) {
        super(message);
        this.name = 'BridgeError';
        this.kind = kind;
        this.status = status;
        this.code = code;
        this.retryAfter = retryAfter;
    }
}

/** `/v1/chats/{chat_id}` with the id percent-encoded (any Unicode, slashes too). */
export function chatPath(chatId, ...rest) {
    let path = `/v1/chats/${encodeURIComponent(String(chatId))}`;
    for (const part of rest) path += `/${encodeURIComponent(String(part))}`;
    return path;
}

export function normalizeBaseUrl(url) {
    const text = String(url ?? '').trim();
    return text.replace(/\/+$/, '');
}

function kindForStatus(status) {
    if (status === 401) return 'unauthorized';
    if (status === 403) return 'forbidden';
    if (status === 404) return 'not_found';
    if (status === 429) return 'rate_limited';
    return 'http';
}

export class BridgeClient {
    /**
     * @param {object} opts
     * @param {() => {bridgeUrl: string, token: string}} opts.config read on every call
     * @param {typeof fetch} [opts.fetch]
     */
    constructor({ config, fetch: fetchImpl }) {
        this.config = config;
        this.fetch = fetchImpl ?? globalThis.fetch?.bind(globalThis);
    }

    /**
     * One request. Resolves with the parsed JSON body; rejects with BridgeError.
     * `timeoutMs` bounds the whole call (connect + body) with an AbortController.
     */
    async request(method, path, { body, timeoutMs = 3000, auth = true, signal } = {}) {
        const { bridgeUrl, token } = this.config();
        const base = normalizeBaseUrl(bridgeUrl);
        if (!base) throw new BridgeError('offline', t('no bridge URL set'));
        if (typeof this.fetch !== 'function') throw new BridgeError('offline', t('fetch is not available'));
        const headers = { Accept: 'application/json' };
        if (auth && token) headers.Authorization = `Bearer ${String(token).trim()}`;
        if (auth) headers['X-BME-Client'] = CLIENT_NAME; // names us in the app's "connected frontends"
        if (body !== undefined) headers['Content-Type'] = 'application/json';

        const controller = new AbortController();
        let timedOut = false;
        const timer = setTimeout(() => { timedOut = true; controller.abort(); }, timeoutMs);
        const onOuterAbort = () => controller.abort();
        signal?.addEventListener?.('abort', onOuterAbort, { once: true });
        try {
            let response;
            try {
                response = await this.fetch(base + path, {
                    method,
                    headers,
                    body: body === undefined ? undefined : JSON.stringify(body),
                    signal: controller.signal,
                    cache: 'no-store',
                });
            } catch (err) {
                if (timedOut) throw new BridgeError('timeout', t('no answer from the bridge within {ms} ms', { ms: timeoutMs }));
                if (signal?.aborted) throw new BridgeError('aborted', t('cancelled'));
                throw new BridgeError('offline', t('cannot reach the bridge at {url} ({detail})', { url: base, detail: err?.message ?? err }));
            }
            let text;
            try {
                text = await response.text();
            } catch (err) {
                if (timedOut) throw new BridgeError('timeout', t('no answer from the bridge within {ms} ms', { ms: timeoutMs }));
                throw new BridgeError('offline', t('connection lost while reading the answer ({detail})', { detail: err?.message ?? err }));
            }
            let data = null;
            if (text) {
                try { data = JSON.parse(text); } catch { data = null; }
            }
            if (!response.ok) {
                const code = data?.error?.code ?? '';
                const detail = data?.error?.message ?? (text ? text.slice(0, 200) : response.statusText);
                const retryAfter = Number(response.headers?.get?.('Retry-After')) || 0;
                throw new BridgeError(kindForStatus(response.status), `HTTP ${response.status}${code ? ` ${code}` : ''}: ${detail}`,
                    { status: response.status, code, retryAfter });
            }
            if (text && data === null) throw new BridgeError('bad_response', t('the bridge answered with something that is not JSON'));
            return data ?? {};
        } finally {
            clearTimeout(timer);
            signal?.removeEventListener?.('abort', onOuterAbort);
        }
    }

    health(opts) { return this.request('GET', '/v1/health', { ...opts, auth: false }); }
    listChats(opts) { return this.request('GET', '/v1/chats', opts); }
    sync(chatId, payload, opts) { return this.request('POST', `${chatPath(chatId)}/sync`, { ...opts, body: payload }); }
    recall(chatId, payload, opts) { return this.request('POST', `${chatPath(chatId)}/recall`, { ...opts, body: payload }); }
    prepareRecall(chatId, payload, opts) {
        return this.request('POST', chatPath(chatId, 'recall', 'prepare'), { ...opts, body: payload });
    }
    getRecall(chatId, index, opts) { return this.request('GET', chatPath(chatId, 'recall', index), opts); }
    putRecall(chatId, index, injection, opts) {
        return this.request('PUT', chatPath(chatId, 'recall', index), { ...opts, body: { injection } });
    }
    deleteRecall(chatId, index, opts) { return this.request('DELETE', chatPath(chatId, 'recall', index), opts); }
}
