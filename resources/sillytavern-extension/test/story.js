// A chat told turn by turn to a real `bme-desktop serve` through the extension, for the
// end-to-end memory tests (e2e.test.js, e2e-review-gate.test.js).

import assert from 'node:assert/strict';
import { setup, stMessage, takeTurn } from './helpers.js';
import { BridgeClient, chatPath } from '../lib/client.js';

export const GREETING = 'Welcome to the glade, traveller. Sit by the fire and tell me about yourself.';
export const FACT = ['My sister Lena lives in Lisbon.', 'How lovely. Do you miss her?'];
export const QUESTION = ['Where does my sister Lena live?', 'I remember you told me about her.'];
/** What an injection holds when it holds the fact as the user told it. */
export const FACT_TEXT = /Lena lives in Lisbon/;

/** Small talk that never mentions the fact: whatever brings it back is memory. */
export const SMALL_TALK = [
    ['The fire is warm tonight.', 'It is. The forest spirits keep it burning.'],
    ['I saw an owl on the way here.', 'Owls watch over the glade at night.'],
    ['Can you teach me to fish?', 'Tomorrow, at the river bend.'],
    ['What is that smell?', 'Pine resin, drying on the stones.'],
    ['I am hungry.', 'There is bread and honey in the basket.'],
    ['Do you ever sleep?', 'Rarely, and only when the moon is new.'],
    ['The stars are bright.', 'They always are above the glade.'],
    ['Is it going to rain?', 'Not tonight; the wind is from the east.'],
    ['I like your cloak.', 'It was woven from moss and moonlight.'],
    ['Tell me a story.', 'Once, a fox tricked the river into flowing uphill.'],
    ['My boots are still wet.', 'Leave them by the embers.'],
    ['What bird is singing?', 'A nightingale, the only one that stays.'],
];

export function bridgeClient(e2e) {
    return e2e.skip ? null : new BridgeClient({ config: () => ({ bridgeUrl: e2e.url, token: e2e.token }) });
}

export async function deleteChats(client, ids) {
    for (const id of ids) {
        if (client) await client.request('DELETE', chatPath(id), { timeoutMs: 10000 }).catch(() => {});
    }
}

/**
 * A fresh chat with the greeting, opened (CHAT_CHANGED) and synced. The extension keeps
 * its defaults for everything that shapes what is recalled; only the recall timeout is
 * raised, so a loaded 2-core test machine cannot turn a slow recall into a miss.
 * `talk(user, reply)` takes one turn and resolves with the injection its reply was
 * generated with, once the bridge has extracted the turn.
 */
export async function openStory({ e2e, client, chatId, settings = {}, coreOptions = {} }) {
    const { st, bme } = setup({
        bridgeUrl: e2e.url,
        token: e2e.token,
        settings: { timeoutMs: 20000, ...settings },
        stOptions: { chatId, chat: [stMessage('Seraphina', GREETING)] },
        coreOptions,
    });
    await st.emit('CHAT_CHANGED', chatId);
    await bme.syncIdle();
    await userReadsTheReply(client, chatId);
    const talk = async (user, reply) => {
        const injection = await takeTurn(st, bme, user, reply);
        const status = bme.status.get();
        assert.ok(status.state !== 'offline' && status.state !== 'error', `${status.state}: ${status.message}`);
        await userReadsTheReply(client, chatId);
        return injection;
    };
    return { st, bme, talk };
}

/**
 * The user reads the reply and types the next message; meanwhile the bridge extracts what
 * was synced. A sync of no messages with `wait: true` answers once every extraction queued
 * for the chat so far has finished: a barrier, not a guess at how long that takes.
 */
export async function userReadsTheReply(client, chatId) {
    await client.sync(chatId, { messages: [], wait: true }, { timeoutMs: 120000 });
}

/**
 * Whether some memory of a recall (or kept recall) came from chat message `index` and
 * names Lisbon (only memories of `type`, when given).
 */
export function recalledFrom(nodes, index, type = null) {
    return (nodes ?? []).some((n) => (type === null || n.type === type)
        && (n.source_indices ?? []).includes(index) && /Lisbon/.test(n.text ?? ''));
}
