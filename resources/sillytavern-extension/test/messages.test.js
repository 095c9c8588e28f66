// Pure helpers: message mapping, recall input choice, skip rules, settings defaults.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { roleOf, toBridgeMessages, chooseRecallInput, skipReason, isoTime, identityOf, membersOf, MAX_MEMBERS, speakerOf } from '../lib/messages.js';
import { applyDefaults, DEFAULT_SETTINGS } from '../lib/constants.js';
import { chatPath } from '../lib/client.js';
import { eventsUrl } from '../lib/events.js';

test('roles come from is_user and is_system (system wins)', () => {
    assert.equal(roleOf({ is_user: true }), 'user');
    assert.equal(roleOf({ is_user: false }), 'assistant');
    assert.equal(roleOf({ is_user: true, is_system: true }), 'system');
});

test('toBridgeMessages keeps chat indices when starting mid-chat', () => {
    const chat = [{ mes: 'a' }, { mes: 'b', is_user: true, name: 'U' }, { mes: 'c', swipe_id: 2 }];
    assert.deepEqual(toBridgeMessages(chat, 1), [
        { index: 1, role: 'user', name: 'U', text: 'b' },
        { index: 2, role: 'assistant', text: 'c', swipe_id: 2 },
    ]);
});

test('isoTime accepts ISO strings and epoch numbers, rejects SillyTavern display dates', () => {
    assert.equal(isoTime(0), '1970-01-01T00:00:00Z');
    assert.equal(isoTime('2024-01-02T03:04:05.678Z'), '2024-01-02T03:04:05Z');
    assert.equal(isoTime('May 8, 2023 1:56pm'), undefined);
    assert.equal(isoTime(''), undefined);
});

test('a normal send serves the pending text at the next index', () => {
    const chat = [{ mes: 'hi', is_user: true }, { mes: 'yo' }];
    assert.deepEqual(chooseRecallInput({ type: undefined, chat, pendingText: ' next ' }), { user_input: 'next', index: 2 });
    assert.deepEqual(chooseRecallInput({ type: 'normal', chat, pendingText: 'next' }), { user_input: 'next', index: 2 });
});

test('swipe, regenerate, continue and an empty send box serve the last user message', () => {
    const chat = [{ mes: 'first', is_user: true }, { mes: 'yo' }, { mes: 'second', is_user: true }, { mes: 'hey' }];
    for (const type of ['swipe', 'regenerate', 'continue', 'impersonate']) {
        assert.deepEqual(chooseRecallInput({ type, chat, pendingText: 'ignored' }), { user_input: 'second', index: 2 });
    }
    assert.deepEqual(chooseRecallInput({ type: undefined, chat, pendingText: '' }), { user_input: 'second', index: 2 });
});

test('slash commands and chats without user messages are skipped', () => {
    assert.equal(chooseRecallInput({ type: undefined, chat: [], pendingText: '  /echo hi' }).skip, 'slash command');
    assert.equal(chooseRecallInput({ type: 'swipe', chat: [{ mes: 'greeting' }], pendingText: '' }).skip, 'no user message');
});

test('dry runs and quiet generations are skipped, normal ones are not', () => {
    assert.equal(skipReason('normal', {}, true), 'dry run');
    assert.equal(skipReason('quiet', {}, false), 'quiet generation');
    assert.equal(skipReason(undefined, { quiet_prompt: 'x' }, false), 'quiet generation');
    assert.equal(skipReason(undefined, { quiet_prompt: '' }, false), '');
    assert.equal(skipReason('swipe', undefined, false), '');
});

test('settings get defaults and sane bounds', () => {
    const s = applyDefaults({ depth: '9999', timeoutMs: 'soon', position: 'sideways', token: 5 });
    assert.equal(s.depth, 1000);
    assert.equal(s.timeoutMs, 3000);
    assert.equal(s.position, 'in_chat');
    assert.equal(s.token, '');
    assert.equal(applyDefaults(undefined).bridgeUrl, 'http://127.0.0.1:7317');
    assert.equal(DEFAULT_SETTINGS.timeoutMs, 3000);
});

test('chat paths percent-encode every segment; events URL switches to ws', () => {
    assert.equal(chatPath('a/b c', 'recall', 4), '/v1/chats/a%2Fb%20c/recall/4');
    assert.equal(chatPath('日本'), '/v1/chats/%E6%97%A5%E6%9C%AC');
    assert.equal(eventsUrl('http://127.0.0.1:7317/'), 'ws://127.0.0.1:7317/v1/events');
    assert.equal(eventsUrl('https://localhost:1'), 'wss://localhost:1/v1/events');
    assert.equal(eventsUrl('nonsense'), null);
});

test('identityOf: avatar file, group id, persona key; blank or oversized ids are left out', () => {
    const characters = [{ name: 'Mira', avatar: 'mira.png' }, { name: 'Odd', avatar: '' }];
    assert.deepEqual(identityOf({ characters, characterId: '0' }, 'me.png'), { character_id: 'mira.png', persona_id: 'me.png' });
    assert.deepEqual(identityOf({ characters, characterId: '1' }, ' '), {});
    assert.deepEqual(identityOf({ characters, characterId: '0', groupId: 12 }, undefined), { character_id: 'group:12' });
    assert.deepEqual(identityOf({ characters, characterId: '0' }, 'x'.repeat(300)), { character_id: 'mira.png' });
    assert.deepEqual(identityOf({}, undefined), {});
});

test('speakerOf: the forced speaker of a group generation only', () => {
    const characters = [{ name: 'Mira' }, { name: 'Garrick' }];
    assert.equal(speakerOf({ groupId: '1', characters }, { force_chid: 1 }), 'Garrick');
    assert.equal(speakerOf({ characters }, { force_chid: 1 }), undefined);
    assert.equal(speakerOf({ groupId: '1', characters }, {}), undefined);
    assert.equal(speakerOf({ groupId: '1', characters }, { force_chid: 9 }), undefined);
});

test('membersOf: a group\'s members by name, muted ones too; unknown avatars and junk left out', () => {
    const characters = [{ name: 'Mira', avatar: 'mira.png' }, { name: 'Garrick', avatar: 'garrick.png' },
        { name: ' ', avatar: 'blank.png' }, { name: 'Tomas', avatar: 'tomas.png' }];
    const groups = [{ id: 7, members: ['mira.png', 'gone.png', 'garrick.png', 'blank.png', 'tomas.png', 'mira.png'],
        disabled_members: ['tomas.png'] }];
    assert.deepEqual(membersOf({ characters, groups, groupId: '7' }), { members: ['Mira', 'Garrick', 'Tomas'] });
    assert.deepEqual(membersOf({ characters, groups, characterId: '0' }), {});
    assert.deepEqual(membersOf({ characters, groups, groupId: '8' }), {});
    assert.deepEqual(membersOf({ characters, groups: [{ id: 7 }], groupId: 7 }), {});
});

test('membersOf: a group larger than the bridge takes sends its first MAX_MEMBERS members', () => {
    const characters = Array.from({ length: 40 }, (_, i) => ({ name: `Member ${i}`, avatar: `m${i}.png` }));
    const groups = [{ id: 1, members: characters.map((c) => c.avatar) }];
    const { members } = membersOf({ characters, groups, groupId: 1 });
    assert.equal(members.length, MAX_MEMBERS);
    assert.equal(members[0], 'Member 0');
});
