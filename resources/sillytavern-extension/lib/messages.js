// Mapping SillyTavern chat messages to bridge messages, and choosing the
// user input that a recall serves. Pure functions.

/** The bridge role of a SillyTavern message. */
export function roleOf(message) {
    if (message?.is_system) return 'system';
    if (message?.is_user) return 'user';
    return 'assistant';
}

/** ISO 8601 time of a `send_date`, or undefined when it does not parse. */
export function isoTime(sendDate) {
    if (sendDate === undefined || sendDate === null || sendDate === '') return undefined;
    const date = typeof sendDate === 'number' ? new Date(sendDate) : new Date(String(sendDate));
    const ms = date.getTime();
    if (!Number.isFinite(ms)) return undefined;
    return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** One SillyTavern message at `index` → the bridge's message shape. */
export function toBridgeMessage(message, index) {
    const out = {
        index,
        role: roleOf(message),
        text: typeof message?.mes === 'string' ? message.mes : String(message?.mes ?? ''),
    };
    if (typeof message?.name === 'string' && message.name) out.name = message.name;
    if (Number.isInteger(message?.swipe_id)) out.swipe_id = message.swipe_id;
    const time = isoTime(message?.send_date);
    if (time) out.time = time;
    return out;
}

/** Bridge messages for `chat[from..]` (all of them by default). */
export function toBridgeMessages(chat, from = 0) {
    const list = Array.isArray(chat) ? chat : [];
    const out = [];
    for (let i = Math.max(0, from); i < list.length; i++) {
        if (list[i] && typeof list[i] === 'object') out.push(toBridgeMessage(list[i], i));
    }
    return out;
}

/** Does `text` look like a slash command (`/cmd …`)? */
export function isSlashCommand(text) {
    return typeof text === 'string' && /^\s*\//.test(text);
}

/** Index and text of the last user message in `chat`, or null. */
export function lastUserMessage(chat) {
    const list = Array.isArray(chat) ? chat : [];
    for (let i = list.length - 1; i >= 0; i--) {
        const m = list[i];
        if (m && m.is_user && !m.is_system && typeof m.mes === 'string' && m.mes.trim()) {
            return { index: i, text: m.mes };
        }
    }
    return null;
}

/**
 * What a recall before generation serves.
 *
 * In GENERATION_AFTER_COMMANDS the user's new message is not yet in `chat`: it is
 * still in the send box (`pendingText`) and will be appended at `chat.length`.
 * Swipes, regenerations, continues and impersonations have no pending message,
 * so they serve the last user message.
 *
 * @returns {{skip: string}|{user_input: string, index: number}}
 */
export function chooseRecallInput({ type, chat, pendingText }) {
    const pending = typeof pendingText === 'string' ? pendingText.trim() : '';
    const sending = type === undefined || type === null || type === 'normal' || type === '';
    if (sending && pending) {
        if (isSlashCommand(pending)) return { skip: 'slash command' };
        return { user_input: pending, index: Array.isArray(chat) ? chat.length : 0 };
    }
    const last = lastUserMessage(chat);
    if (!last) return { skip: 'no user message' };
    if (isSlashCommand(last.text)) return { skip: 'slash command' };
    return { user_input: last.text, index: last.index };
}

/** Should a GENERATION_AFTER_COMMANDS call be ignored? Returns a reason or ''. */
export function skipReason(type, options, dryRun) {
    if (dryRun === true) return 'dry run';
    if (type === 'quiet') return 'quiet generation';
    if (options && typeof options === 'object' && options.quiet_prompt) return 'quiet generation';
    return '';
}

/** A text id, or undefined for anything else (empty, not a string, too long for the bridge). */
function stableId(value) {
    return typeof value === 'string' && value.trim() && value.length <= 256 ? value : undefined;
}

function inGroup(ctx) {
    return ctx?.groupId !== undefined && ctx?.groupId !== null && ctx?.groupId !== '';
}

/**
 * Who is who, for the sync body: the character's avatar file as its stable id (a renamed card
 * keeps its memories; two cards of one name stay apart), a group chat's group id, and the
 * user's persona (its avatar key, from SillyTavern's `user_avatar`).
 * @returns {{character_id?: string, persona_id?: string}}
 */
export function identityOf(ctx, personaId) {
    const out = {};
    let character;
    if (inGroup(ctx)) character = `group:${ctx.groupId}`;
    else if (Array.isArray(ctx?.characters) && ctx.characterId !== undefined && ctx.characterId !== null) {
        character = stableId(ctx.characters[Number(ctx.characterId)]?.avatar);
    }
    if (stableId(character)) out.character_id = character;
    const persona = stableId(personaId);
    if (persona) out.persona_id = persona;
    return out;
}

/** The most members a sync names (the bridge refuses a longer list). */
export const MAX_MEMBERS = 30;

/**
 * In a group chat, its members' names for the sync body (SillyTavern's `group.members` are
 * avatar files, looked up in `characters`; a muted member is still in the scene), so one who
 * never speaks still witnesses it. Outside a group, or when the group cannot be read, nothing
 * (the bridge keeps what it has). Unknown avatars, blank or oversized names are left out, each
 * name once, at most MAX_MEMBERS.
 * @returns {{members?: string[]}}
 */
export function membersOf(ctx) {
    if (!inGroup(ctx) || !Array.isArray(ctx.groups) || !Array.isArray(ctx.characters)) return {};
    const group = ctx.groups.find((g) => String(g?.id) === String(ctx.groupId));
    if (!group || !Array.isArray(group.members)) return {};
    const names = [];
    for (const avatar of group.members) {
        const name = ctx.characters.find((c) => c?.avatar === avatar)?.name;
        if (typeof name === 'string' && name.trim() && name.length <= 256 && !names.includes(name)) names.push(name);
    }
    return { members: names.slice(0, MAX_MEMBERS) };
}

/**
 * In a group chat, the character SillyTavern is about to make speak (the generation's
 * `force_chid`), so the recall brings only what that character witnessed; else undefined.
 */
export function speakerOf(ctx, options) {
    if (!inGroup(ctx) || !options || options.force_chid === undefined || options.force_chid === null) return undefined;
    const name = Array.isArray(ctx.characters) ? ctx.characters[Number(options.force_chid)]?.name : undefined;
    return typeof name === 'string' && name.trim() && name.length <= 256 ? name : undefined;
}
