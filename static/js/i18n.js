// All UI strings, English and Ukrainian. The choice is remembered in localStorage.

const DICT = {
  en: {
    app_title: "Five Up Online",
    tagline: "Five Up — dominoes for 2, 3 or 4 players (4 in partnerships). Score whenever the open ends add up to a multiple of five; first to 61 wins.",
    lang_label: "Language",
    conn_open: "Connected", conn_connecting: "Connecting…", conn_reconnecting: "Reconnecting…", conn_closed: "Offline",
    home_create: "Create a table", table_name: "Table name", players: "Players", public_table: "Public (listed in the lobby)",
    your_name: "Your display name", create: "Create", join_by_code: "Join by code", code: "Table code", go: "Go",
    lobby: "Public tables", lobby_empty: "No public tables right now.", refresh: "Refresh",
    col_table: "Table", col_status: "Status", col_seats: "Seats", col_scores: "Scores", join: "Join", watch: "Watch",
    status_waiting: "waiting", status_playing: "in play", status_finished: "finished", status_closed: "closed",
    round_n: "round {n}",
    back_home: "Lobby",
    waiting_title: "Table {name} — waiting for players",
    seat_n: "Seat {n}", empty_seat: "Empty", sit_here: "Sit here", move_here: "Move here", host: "host", you: "you",
    team: "Team {n}", partners_note: "Partners sit opposite: {a} and {b} against {c} and {d}.",
    tile_label: "tile {a}–{b}", side_low: "low end", side_high: "high end", side_lineA: "line A", side_lineB: "line B", side_branchA: "branch A", side_branchB: "branch B",
    table_closed: "This table is closed: everybody left before the start.", show_board: "Show the board", remove: "Remove", leave: "Leave this seat", you_were_removed: "The host removed you from the table; you are watching now.",
    invite: "Invite link", copy: "Copy", copied: "Copied!", start_match: "Start the match",
    waiting_for_host: "Waiting for the host to start.", need_all_seats: "All seats must be filled to start.",
    join_prompt: "Enter your name and pick a free seat.",
    spectating: "Spectating", spectating_note: "You are watching this table. Hands are hidden.",
    stock: "Stock: {n}", board_count: "Board count: {n}", turn_of: "{name} to play", your_turn: "Your turn",
    tiles_n: "{n} tiles", tiles_n_one: "{n} tile",
    draw: "Draw", pass: "Pass", must_play: "must play", must_play_note: "You drew {tile}: you must play it.",
    no_moves_draw: "No tile fits: draw from the stock.", no_moves_pass: "No tile fits and the stock is empty: pass.",
    select_tile: "Choose a tile, then a place on the board.", choose_place: "Choose where to play {tile}.",
    scores: "Scores", log: "Moves", log_empty: "No moves yet.",
    log_open: "{name} opened with {tile}", log_place: "{name} played {tile} at {place}",
    log_draw: "{name} drew a tile", log_draw_you: "{name} drew {tile}", log_pass: "{name} passed", log_auto: "(automatic)",
    pts: "{raw} → +{disp}",
    round_over: "Round {n} over", result_domino: "{name} played out.", result_blocked: "The round is blocked: nobody scores for it.",
    col_player: "Player", col_hand: "Hand", col_pips: "Pips", col_rounded: "Rounded", col_deduction: "Deduction",
    new_scores: "New scores", next_round: "Ready for the next round", ready_waiting: "Ready: {names}. The next round starts when everyone is ready or after a short countdown.",
    ready_list: "Ready: {names}. The next round starts as soon as everyone is ready.", next_round_in: "Next round in {n} s",
    match_over: "Match over", winner_is: "Winner: {name}", final_scores: "Final scores", rematch: "Rematch",
    rematch_votes: "Rematch votes: {names}",
    side_label: "{names}",
    zoom_in: "Zoom in", zoom_out: "Zoom out", zoom_reset: "Fit",
    board_label: "The layout", hand_label: "Your hand",
    place_label: "Play {tile} at {place}: {points} points",
    err_generic: "Something went wrong: {msg}",
    err_not_your_turn: "It is not your turn.", err_illegal_move: "That move is not allowed: {msg}",
    err_stale: "The table moved on; showing the latest state.", err_conflict: "Another move came first; showing the latest state.",
    err_round_over: "The round is over.", err_not_started: "The match has not started.",
    err_seat_taken: "That seat is taken.", err_already_started: "The match has already started.",
    err_seats_not_filled: "All seats must be filled to start.", err_not_host: "Only the host can do that.",
    err_invalid_name: "Please enter a name (1–24 characters).", err_not_found: "No table with that code.",
    err_unauthorized: "Your seat token is not valid here.", err_spectator: "Spectators cannot act.",
    err_network: "Network error — please try again.",
    err_table_closed: "This table is closed.", err_unavailable: "The server cannot reach its database right now; please retry shortly.",
    err_not_round_over: "The next round has already started.", err_too_large: "That request was too large.",
    err_bad_seat: "There is no such seat.", err_match_not_over: "The match is not over yet.", err_bad_players: "A table has 2, 3 or 4 players.",
    loading: "Loading…", match_n: "Match {n}",
    keyboard_help: "Keys: ←/→ choose a tile, Enter select, then ←/→ choose a place and Enter to play; D draw, P pass, Esc cancel, +/− zoom.",
    description: "Layout description",
  },
  uk: {
    app_title: "П'ять — онлайн",
    tagline: "«П'ять» — доміно на 2, 3 або 4 гравців (учотирьох — парами). Очки, коли сума відкритих кінців кратна п'яти; перемагає той, хто перший набере 61.",
    lang_label: "Мова",
    conn_open: "З'єднано", conn_connecting: "З'єднання…", conn_reconnecting: "Перепідключення…", conn_closed: "Немає зв'язку",
    home_create: "Створити стіл", table_name: "Назва столу", players: "Гравців", public_table: "Публічний (видно в лобі)",
    your_name: "Ваше ім'я", create: "Створити", join_by_code: "Приєднатися за кодом", code: "Код столу", go: "Перейти",
    lobby: "Публічні столи", lobby_empty: "Зараз немає публічних столів.", refresh: "Оновити",
    col_table: "Стіл", col_status: "Стан", col_seats: "Місця", col_scores: "Рахунок", join: "Сісти", watch: "Дивитися",
    status_waiting: "очікує", status_playing: "грають", status_finished: "завершено", status_closed: "закрито",
    round_n: "раунд {n}",
    back_home: "Лобі",
    waiting_title: "Стіл {name} — чекаємо гравців",
    seat_n: "Місце {n}", empty_seat: "Вільно", sit_here: "Сісти тут", move_here: "Пересісти", host: "господар", you: "ви",
    team: "Команда {n}", partners_note: "Партнери сидять навпроти: {a} і {b} проти {c} і {d}.",
    tile_label: "кістка {a}–{b}", side_low: "менший кінець", side_high: "більший кінець", side_lineA: "лінія A", side_lineB: "лінія B", side_branchA: "гілка A", side_branchB: "гілка B",
    table_closed: "Цей стіл закрито: усі пішли до початку гри.", show_board: "Показати стіл", remove: "Прибрати", leave: "Звільнити місце", you_were_removed: "Господар прибрав вас зі столу; тепер ви глядач.",
    invite: "Посилання-запрошення", copy: "Копіювати", copied: "Скопійовано!", start_match: "Почати партію",
    waiting_for_host: "Чекаємо, поки господар почне гру.", need_all_seats: "Щоб почати, усі місця мають бути зайняті.",
    join_prompt: "Введіть ім'я та виберіть вільне місце.",
    spectating: "Глядач", spectating_note: "Ви дивитеся цей стіл. Руки гравців приховані.",
    stock: "Базар: {n}", board_count: "Сума кінців: {n}", turn_of: "Хід: {name}", your_turn: "Ваш хід",
    tiles_n: "{n} кісток", tiles_n_one: "{n} кістка", tiles_n_few: "{n} кістки",
    draw: "Добрати", pass: "Пас", must_play: "треба зіграти", must_play_note: "Ви добрали {tile}: її треба зіграти.",
    no_moves_draw: "Немає ходу: доберіть з базару.", no_moves_pass: "Немає ходу і базар порожній: пас.",
    select_tile: "Виберіть кістку, потім місце на столі.", choose_place: "Виберіть, куди поставити {tile}.",
    scores: "Рахунок", log: "Ходи", log_empty: "Ходів ще немає.",
    log_open: "{name} почав(ла) з {tile}", log_place: "{name}: {tile} до {place}",
    log_draw: "{name} добрав(ла) кістку", log_draw_you: "{name} добрав(ла) {tile}", log_pass: "{name}: пас", log_auto: "(автоматично)",
    pts: "{raw} → +{disp}",
    round_over: "Раунд {n} завершено", result_domino: "{name} виставив(ла) усі кістки.", result_blocked: "Риба: раунд заблоковано, ніхто не отримує очок.",
    col_player: "Гравець", col_hand: "Рука", col_pips: "Очки", col_rounded: "Округлено", col_deduction: "Мінус",
    new_scores: "Новий рахунок", next_round: "Готовий(а) до наступного раунду", ready_waiting: "Готові: {names}. Наступний раунд почнеться, коли всі будуть готові, або за кілька секунд.",
    ready_list: "Готові: {names}. Наступний раунд почнеться, щойно всі будуть готові.", next_round_in: "Наступний раунд через {n} с",
    match_over: "Партію завершено", winner_is: "Переможець: {name}", final_scores: "Підсумковий рахунок", rematch: "Реванш",
    rematch_votes: "За реванш: {names}",
    side_label: "{names}",
    zoom_in: "Збільшити", zoom_out: "Зменшити", zoom_reset: "Вмістити",
    board_label: "Викладка", hand_label: "Ваша рука",
    place_label: "Поставити {tile} до {place}: {points} очок",
    err_generic: "Помилка: {msg}",
    err_not_your_turn: "Зараз не ваш хід.", err_illegal_move: "Такий хід заборонено: {msg}",
    err_stale: "Стан столу змінився; показуємо актуальний.", err_conflict: "Інший хід був першим; показуємо актуальний стан.",
    err_round_over: "Раунд завершено.", err_not_started: "Партія ще не почалася.",
    err_seat_taken: "Це місце зайняте.", err_already_started: "Партія вже почалася.",
    err_seats_not_filled: "Щоб почати, усі місця мають бути зайняті.", err_not_host: "Це може зробити лише господар.",
    err_invalid_name: "Введіть ім'я (1–24 символи).", err_not_found: "Стола з таким кодом немає.",
    err_unauthorized: "Ваш ключ місця тут недійсний.", err_spectator: "Глядачі не можуть ходити.",
    err_network: "Помилка мережі — спробуйте ще раз.",
    err_table_closed: "Цей стіл закрито.", err_unavailable: "Сервер зараз не має доступу до бази даних; спробуйте трохи згодом.",
    err_not_round_over: "Наступний раунд уже почався.", err_too_large: "Запит завеликий.",
    err_bad_seat: "Такого місця немає.", err_match_not_over: "Партія ще не завершилася.", err_bad_players: "За столом 2, 3 або 4 гравці.",
    loading: "Завантаження…", match_n: "Партія {n}",
    keyboard_help: "Клавіші: ←/→ вибір кістки, Enter — взяти, далі ←/→ вибір місця і Enter — хід; D — добрати, P — пас, Esc — скасувати, +/− масштаб.",
    description: "Опис викладки",
  },
};

// Computer players (static/js/ui/bots.js).
Object.assign(DICT.en, {
  computer: "computer", play_computer: "Play against the computer", bot_strength: "Strength",
  bot_level_easy: "easy", bot_level_medium: "medium", bot_level_hard: "hard", add_computer: "Add computer",
  practice_note: "You against computer players: the match starts at once.",
  n_computers: "{n} computers", n_computers_one: "{n} computer",
  err_unknown_level: "Choose a strength: easy, medium or hard.",
});
Object.assign(DICT.uk, {
  computer: "комп'ютер", play_computer: "Грати з комп'ютером", bot_strength: "Сила",
  bot_level_easy: "легкий", bot_level_medium: "середній", bot_level_hard: "сильний", add_computer: "Додати комп'ютер",
  practice_note: "Ви проти комп'ютерних гравців: партія починається одразу.",
  n_computers: "{n} комп'ютерів", n_computers_one: "{n} комп'ютер", n_computers_few: "{n} комп'ютери", n_computers_many: "{n} комп'ютерів",
  err_unknown_level: "Оберіть силу: легкий, середній або сильний.",
});

const KEY = "fiveup.lang";
let lang = "en";
try {
  const saved = localStorage.getItem(KEY);
  if (saved && DICT[saved]) lang = saved;
  else if ((navigator.language || "").toLowerCase().startsWith("uk")) lang = "uk";
} catch { /* private mode */ }

export const LANGS = [["en", "English"], ["uk", "Українська"]];

export function getLang() { return lang; }

export function setLang(l) {
  if (!DICT[l]) return;
  lang = l;
  try { localStorage.setItem(KEY, l); } catch { /* ignore */ }
  document.documentElement.lang = l;
}

/** t("stock", {n: 3}) -> "Stock: 3". Unknown keys fall back to English, then the key. */
export function t(key, params = {}) {
  const s = lookup(pluralKey(key, params.n)) ?? lookup(key) ?? key;
  return s.replace(/\{(\w+)\}/g, (_, k) => (params[k] !== undefined ? String(params[k]) : "{" + k + "}"));
}

function lookup(key) {
  return (DICT[lang] && DICT[lang][key]) ?? DICT.en[key];
}

/** "tiles_n" + n -> "tiles_n_one" / "tiles_n_few" / … by the language's plural rules. */
function pluralKey(key, n) {
  if (typeof n !== "number") return key;
  const category = new Intl.PluralRules(lang).select(n);
  return (DICT[lang] && DICT[lang][key + "_" + category]) ? key + "_" + category : key;
}

/** The engine's layout description in the current language (R10 wording of the rules). */
export function layoutDescription(view) {
  return (lang === "uk" && view.description_uk) || view.description || "";
}

export function hasKey(key) { return key in DICT.en; }

/** A place's side name in the current language ("branchA" -> "branch A"). */
export function sideLabel(side) { return hasKey("side_" + side) ? t("side_" + side) : side; }
export const _dict = DICT;
