// "Invite friends" in a waiting room (docs/invitations.md): a seated, signed-in player's
// friends (GET /api/friends) and clubs (GET /api/clubs), read once by ui/table.js into
// st.friends and st.clubs; each friend with an "Invite" button, each club with "Invite
// the club" (every other member), both sending POST /api/tables/{code}/invitations with
// the seat's token; the invitation reaches each invitee at once on whatever page they
// have open. A guest, or a player with neither friends nor clubs, sees nothing here.
import { h } from "../dom.js";
import { t, addStrings } from "../i18n.js";
import { api } from "../net/api.js";

addStrings({
  en: {
    invite_friends: "Invite friends", invite_friend: "Invite", invited_friend: "Invited ✓",
    invite_club: "Invite the club", invite_club_label: "Invite every member of {club}",
    invited_club: "{n} invited ✓", club_members: "{n} members",
  },
  uk: {
    invite_friends: "Запросити друзів", invite_friend: "Запросити", invited_friend: "Запрошено ✓",
    invite_club: "Запросити клуб", invite_club_label: "Запросити всіх членів клубу {club}",
    invited_club: "Запрошено: {n} ✓", club_members: "Членів: {n}",
  },
});

export function inviteFriendsEl(ctx) {
  const { st, update, code, httpAction } = ctx;
  const friends = st.friends || [];
  const clubs = st.clubs || [];
  if (st.you === null || st.you === undefined || (!friends.length && !clubs.length) || st.table.status !== "waiting") return null;
  const invited = st.invited || {};
  const clubsInvited = st.clubsInvited || {};
  return h("details", { class: "invite-friends", "data-testid": "invite-friends", "data-key": "invite-friends", open: true },
    h("summary", { text: t("invite_friends") }),
    friends.length ? h("ul", { class: "invite-friends-list" }, ...friends.map((f) => h("li", { "data-testid": "invite-friend-row", "data-handle": f.handle },
      h("span", { text: f.display_name + " " }), h("small", { text: "@" + f.handle }), " ",
      h("button", {
        "data-testid": "invite-friend", "data-handle": f.handle, disabled: !!invited[f.handle],
        text: invited[f.handle] ? t("invited_friend") : t("invite_friend"),
        onclick: () => httpAction(async () => {
          await api.inviteFriends(code, [f.handle], st.token);
          update({ invited: { ...(st.invited || {}), [f.handle]: true } });
        }),
      })))) : null,
    clubs.length ? h("ul", { class: "invite-friends-list", "data-testid": "invite-clubs" }, ...clubs.map((c) => {
      const sent = clubsInvited[c.id];
      return h("li", { "data-testid": "invite-club-row", "data-club": String(c.id) },
        h("span", { text: c.name + " " }), h("small", { text: t("club_members", { n: c.members }) }), " ",
        h("button", {
          "data-testid": "invite-club", "data-club": String(c.id), disabled: sent !== undefined,
          "aria-label": sent !== undefined ? undefined : t("invite_club_label", { club: c.name }),
          text: sent !== undefined ? t("invited_club", { n: sent }) : t("invite_club"),
          onclick: () => httpAction(async () => {
            const r = await api.inviteClub(code, c.id, st.token);
            update({ clubsInvited: { ...(st.clubsInvited || {}), [c.id]: r.invited } });
          }),
        }));
    })) : null);
}
