// Shared constants and default settings. Pure data: safe to import anywhere.

/** Key under `extensionSettings` and the extension-prompt key. */
export const SETTINGS_KEY = 'bme_desktop';
export const PROMPT_KEY = 'bme_desktop';
export const LOG_PREFIX = '[BME]';
/** Sent as X-BME-Client so the app can list this extension among its connected frontends. */
export const CLIENT_NAME = 'SillyTavern-extension/0.1.0';

/** The bridge's documented default port. */
export const DEFAULT_PORT = 7317;

/**
 * SillyTavern's `extension_prompt_types` (script.js). They are not on the
 * context in 1.12.x, so we use the numbers, which have been stable.
 */
export const PROMPT_POSITIONS = Object.freeze({
    in_prompt: 0, // IN_PROMPT: end of the system prompt / prompt-manager block
    in_chat: 1, // IN_CHAT: spliced into the chat history at `depth`
    before_prompt: 2, // BEFORE_PROMPT: start of the prompt
});

/** `extension_prompt_roles.SYSTEM`. */
export const ROLE_SYSTEM = 0;
export const MAX_DEPTH = 1000;

export const DEFAULT_SETTINGS = Object.freeze({
    enabled: true,
    bridgeUrl: `http://127.0.0.1:${DEFAULT_PORT}`,
    token: '',
    position: 'in_chat',
    depth: 4,
    timeoutMs: 3000,
    topK: 8,
    budgetTokens: 1500,
    debounceMs: 400,
    syncTimeoutMs: 30000,
    showRecallUnderMessages: true,
    // send the chat's lorebook (World Info) entries to BME Desktop (lib/lorebook.js)
    sendLorebook: true,
    // lend SillyTavern's connection to BME Desktop's memory jobs (lib/modeljobs.js)
    lendModel: true,
    lendJobsPerMinute: 4,
    lendMaxTokens: 2048,
    lendMaxPromptTokens: 12000,
});

/** Copy defaults into `settings` for missing or wrongly typed keys (in place). */
export function applyDefaults(settings) {
    const out = settings && typeof settings === 'object' ? settings : {};
    for (const [key, value] of Object.entries(DEFAULT_SETTINGS)) {
        if (typeof value === 'number' && typeof out[key] === 'string' && out[key].trim() !== '' && Number.isFinite(Number(out[key]))) {
            out[key] = Number(out[key]);
        }
        if (typeof out[key] !== typeof value) out[key] = value;
    }
    if (!Object.hasOwn(PROMPT_POSITIONS, out.position)) out.position = DEFAULT_SETTINGS.position;
    out.depth = clampInt(out.depth, 0, MAX_DEPTH, DEFAULT_SETTINGS.depth);
    out.timeoutMs = clampInt(out.timeoutMs, 100, 120000, DEFAULT_SETTINGS.timeoutMs);
    out.topK = clampInt(out.topK, 1, 100, DEFAULT_SETTINGS.topK);
    out.budgetTokens = clampInt(out.budgetTokens, 50, 32000, DEFAULT_SETTINGS.budgetTokens);
    out.debounceMs = clampInt(out.debounceMs, 0, 10000, DEFAULT_SETTINGS.debounceMs);
    out.lendJobsPerMinute = clampInt(out.lendJobsPerMinute, 1, 60, DEFAULT_SETTINGS.lendJobsPerMinute);
    out.lendMaxTokens = clampInt(out.lendMaxTokens, 64, 32000, DEFAULT_SETTINGS.lendMaxTokens);
    out.lendMaxPromptTokens = clampInt(out.lendMaxPromptTokens, 500, 200000, DEFAULT_SETTINGS.lendMaxPromptTokens);
    return out;
}

export function clampInt(value, min, max, fallback) {
    const n = Number(value);
    if (!Number.isFinite(n)) return fallback;
    return Math.min(max, Math.max(min, Math.round(n)));
}
