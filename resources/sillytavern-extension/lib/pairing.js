// Pairing without pasting a token: `bme-desktop sillytavern install` writes the bridge's URL and
// token into `bme-connection.json` beside this extension. On load the extension adopts it when it
// has no token yet, or when the file was written after the connection it adopted last (the
// installer was run again, e.g. after `bme-desktop token --rotate`). Settings typed by hand after
// that are kept until the installer writes a newer file.

export const CONNECTION_FILE = 'bme-connection.json';

/**
 * The connection the installer wrote, when it is well-formed: `{url, token, writtenAt}`; else null.
 * @param {unknown} data  the parsed file
 */
export function parseConnection(data) {
    if (!data || typeof data !== 'object') return null;
    const { url, token, written_at: writtenAt } = /** @type {any} */ (data);
    if (typeof url !== 'string' || !/^https?:\/\/[^\s/]+/i.test(url)) return null;
    if (typeof token !== 'string' || token.trim().length < 16 || /\s/.test(token.trim())) return null;
    if (typeof writtenAt !== 'number' || !Number.isFinite(writtenAt)) return null;
    return { url: url.replace(/\/+$/, ''), token: token.trim(), writtenAt };
}

/**
 * Adopt the installer's connection into `settings` when it should be; returns true when adopted.
 * @param {object} deps
 * @param {object} deps.settings  the extension's settings (bridgeUrl, token, pairedAt)
 * @param {() => void} deps.save
 * @param {typeof fetch} deps.fetch
 * @param {URL|string} deps.base  this extension's folder URL
 */
export async function adoptInstallerConnection({ settings, save, fetch: fetchImpl, base }) {
    let data;
    try {
        const response = await fetchImpl(new URL(CONNECTION_FILE, base), { cache: 'no-cache' });
        if (!response.ok) return false; // not installed by the installer: nothing to adopt
        data = await response.json();
    } catch {
        return false;
    }
    const connection = parseConnection(data);
    if (!connection) return false;
    const pairedAt = typeof settings.pairedAt === 'number' ? settings.pairedAt : 0;
    if (settings.token && connection.writtenAt <= pairedAt) return false;
    if (settings.token === connection.token && settings.bridgeUrl === connection.url) {
        settings.pairedAt = connection.writtenAt;
        save();
        return false;
    }
    settings.bridgeUrl = connection.url;
    settings.token = connection.token;
    settings.pairedAt = connection.writtenAt;
    save();
    return true;
}
