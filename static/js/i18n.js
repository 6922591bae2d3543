// All UI strings, English and Ukrainian. The choice is remembered in localStorage.

const DICT = {
  en: {
    app_title: "Five Up Online",
    tagline: "Five Up — dominoes for 2, 3 or 4 players (4 in partnerships). Score whenever the open ends add up to a multiple of five; first to 61 wins.",
    lang_label: "Language",
    conn_open: "Connected", conn_connecting: "Connecting…", conn_reconnecting: "Reconnecting…", conn_resuming: "Reconnecting…", conn_closed: "Offline",
    home_create: "Create a table", table_name: "Table name", players: "Players", public_table: "Public (listed in the lobby)",
    your_name: "Your display name", create: "Create", join_by_code: "Join by code", code: "Table code", go: "Go",
    lobby: "Public tables", lobby_empty: "No public tables right now.", refresh: "Refresh",
    finished_tables: "Finished matches", finished_empty: "No finished public matches yet.", replay_link: "Replay", finished_match_n: "Match {n}",
    col_table: "Table", col_status: "Status", col_seats: "Seats", col_scores: "Scores", join: "Join", watch: "Watch",
    status_waiting: "waiting", status_playing: "in play", status_finished: "finished", status_closed: "closed",
    round_n: "round {n}",
    back_home: "Lobby",
    waiting_title: "Table {name} — waiting for players",
    seat_n: "Seat {n}", empty_seat: "Empty", sit_here: "Sit here", move_here: "Move here", host: "host", you: "you",
    team: "Team {n}", partners_note: "Partners sit opposite: {a} and {b} against {c} and {d}.",
    tile_label: "tile {a}–{b}", side_low: "low end", side_high: "high end", side_lineA: "line A", side_lineB: "line B", side_branchA: "branch A", side_branchB: "branch B",
    table_closed: "This table is closed: everybody left.", show_board: "Show the board", remove: "Remove", leave: "Leave this seat", you_were_removed: "The host removed you from the table; you are watching now.",
    invite: "Invite link", copy: "Copy", copied: "Copied!", start_match: "Start the match",
    waiting_for_host: "Waiting for the host to start.", need_all_seats: "All seats must be filled to start.",
    join_prompt: "Enter your name and pick a free seat.",
    spectating: "Spectating", spectating_note: "You are watching this table. Hands are hidden.",
    stock: "Stock: {n}", board_count: "Board count: {n}", turn_of: "{name} to play", your_turn: "Your turn",
    tiles_n: "{n} tiles", tiles_n_one: "{n} tile",
    draw: "Draw", pass: "Pass", must_play: "must play", must_play_note: "You drew {tile}: you must play it.",
    no_moves_draw: "No tile fits: draw from the stock.", no_moves_pass: "No tile fits and the stock is empty: pass.",
    select_tile: "Choose a tile, then a place on the board.",
    scores: "Scores", log: "Moves", log_empty: "No moves yet.",
    log_open: "{name} opened with {tile}", log_place: "{name} played {tile} at {place}",
    log_draw: "{name} drew a tile", log_draw_you: "{name} drew {tile}", log_pass: "{name} passed", log_auto: "(automatic)",
    round_over: "Round {n} over", result_domino: "{name} played out.", result_blocked: "The round is blocked: nobody can play, nobody gets points for going out; every hand's leftover pips are still deducted (R21, R22).",
    col_player: "Player", col_hand: "Hand", col_pips: "Pips", col_rounded: "Rounded", col_deduction: "Deduction",
    new_scores: "New scores", next_round: "Ready for the next round", ready_waiting: "Ready: {names}. The next round starts when everyone is ready or after a short countdown.",
    ready_list: "Ready: {names}. The next round starts as soon as everyone is ready.", next_round_in: "Next round in {n} s",
    match_over: "Match over", winner_is: "Winner: {name}", final_scores: "Final scores", rematch: "Rematch",
    rematch_votes: "Rematch votes: {names}",
    side_label: "{names}",
    zoom_in: "Zoom in", zoom_out: "Zoom out", zoom_reset: "Fit",
    board_label: "The layout", hand_label: "Your hand",
    err_generic: "Something went wrong: {msg}",
    err_not_your_turn: "It is not your turn.", err_illegal_move: "That move is not allowed: {msg}",
    err_stale: "The table moved on; showing the latest state.", err_conflict: "Another move came first; showing the latest state.",
    err_round_over: "The round is over.", err_not_started: "The match has not started.",
    err_seat_taken: "That seat is taken.", err_already_started: "The match has already started.",
    err_seats_not_filled: "All seats must be filled to start.", err_not_host: "Only the host can do that.",
    err_invalid_name: "Please enter a name (1–24 characters).", err_not_found: "No table with that code.", err_removed: "The host has removed you from this table.", err_banned: "This address is banned from this server.",
    err_unauthorized: "Your seat token is not valid here.", err_spectator: "Spectators cannot act.",
    chat: "Chat", chat_say: "Say something…", chat_send: "Send", chat_quick: "Quick messages",
    chat_spectator: "Spectator", chat_spectators_tag: "[spectators]", chat_off: "The host has turned spectator chat off.",
    chat_spectators_allowed: "Spectators may chat", chat_mute: "Mute people…",
    chat_report: "Report this message", report_reason: "Why?", report_reason_abuse: "Abuse or insults",
    report_reason_spam: "Spam", report_reason_cheating: "Cheating", report_reason_name: "An offensive name",
    report_reason_other: "Something else", report_text: "What happened? (optional)", report_send: "Report",
    report_cancel: "Cancel", report_done: "Thank you: the server's operator will look at it.",
    host_remove: "Remove the author", host_block: "Remove and block", host_removed: "Removed.",
    quick_good_move: "Good move!", quick_well_played: "Well played", quick_hurry_up: "Hurry up", quick_thanks: "Thanks",
    quick_gg: "Good game", quick_oops: "Oops", quick_hello: "Hello!",
    quick_emote_smile: "smile", quick_emote_laugh: "laugh", quick_emote_wow: "wow", quick_emote_sad: "sad",
    quick_emote_thumbs_up: "thumbs up", quick_emote_clap: "applause",
    err_rate_limited: "Too many messages at once; wait a moment.",
    err_too_many_tries: "Too many tries, wait {s} s.",
    err_too_many_practice_tables: "You already have the most practice tables in play; finish or leave one first.",
    err_chat_off: "The host has turned spectator chat off.", err_bad_chat: "A chat message is 1 to 200 characters.",
    spectators_n: "{n} watching", players_online_n: "{n} of {of} players here",
    err_network: "Network error — please try again.",
    err_table_closed: "This table is closed.", err_unavailable: "The server cannot reach its database right now; please retry shortly.",
    err_not_round_over: "The next round has already started.", err_too_large: "That request was too large.",
    err_bad_seat: "There is no such seat.", err_match_not_over: "The match is not over yet.", err_bad_players: "A table has 2, 3 or 4 players.",
    loading: "Loading…", match_n: "Match {n}",
    keyboard_help: "Keys: ←/→ choose a tile, Enter select, then ←/→ choose a place and Enter to play; D draw, P pass, Esc cancel, +/− zoom.",
    description: "Layout description",

    // --- issue 11 ---
    pts_none: "0", pts_label: "{raw} → +{disp}",
    choose_place: "{tile} selected: {n} places are shown with the points the score will gain. Click one to play; Esc or the empty felt to cancel.",
    confirm_single: "{tile} fits in one place, shown with its points. Click the place or the tile again to play; Esc or the empty felt to cancel.",
    sending: "Playing…",
    score_sheet: "Score sheet", sheet_round: "Round", sheet_result: "Result", sheet_in_play: "in play",
    sheet_blocked: "blocked", sheet_domino: "{name} went out", sheet_tally: "Tally (R26)",
    sheet_cell_title: "made +{made}, deducted −{ded}, total {total}", sheet_review: "Round {n}: final board and settlement",
    table_name_optional: "Table name (optional: your name if empty)", table_name_placeholder: "your name",
    name_limit: "Up to {max} characters.", name_too_long: "{n} characters: names have at most {max}.",
    table_full_watch: "Every seat is taken: you are watching this table.",
    log_on_end: "{name} played {tile} on the {value} end of {parent}",
    log_on_spinner: "{name} played {tile} on the {parent} spinner, {dir} {part}", log_on_spinner_plain: "{name} played {tile} on the {parent} spinner ({part})",
    part_line: "line", part_branch: "branch",
    dir_left_line: "left", dir_right_line: "right", dir_up_line: "upper", dir_down_line: "lower",
    dir_left_branch: "left", dir_right_branch: "right", dir_up_branch: "upper", dir_down_branch: "lower",
    open_end_label: "open end showing {value}",
    sound_on: "Sound: on", sound_off: "Sound: off", rules_link: "Rules", profile_link_top: "Profile", games_link_top: "Games", mute: "Mute sounds",
    hint_text: "New here? Every double is a spinner: once both its sides are covered, two more branches open from it. The board count adds up the open ends; when it is a multiple of 5, the player who just played scores it (5 = 1 point).",
    hint_rules: "Read the rules", hint_ok: "Got it",
    show_log: "Moves & score sheet",
    hero_title: "Dominoes with friends, scored in fives", hero_play: "Play with friends", hero_watch: "Watch a live table",
    hero_rules: "How to play", hero_board_caption: "Open ends: 2–2 counts 4, 3–3 counts 6, then 1 and 4: 15 on the board, +3 points.", hero_board_label: "A Five Up layout: the 5–5 spinner with tiles on both lines and both branches",
    no_live_tables: "No table is being played right now.", looking_for: "looking for {n} players", looking_for_one: "looking for {n} player",
    close: "Close", scores_after: "Scores after the round: {scores}", show_results: "show the results",
  },
  uk: {
    app_title: "П'ять — онлайн",
    tagline: "«П'ять» — доміно на 2, 3 або 4 гравців (учотирьох — парами). Очки, коли сума відкритих кінців кратна п'яти; перемагає той, хто перший набере 61.",
    lang_label: "Мова",
    conn_open: "З'єднано", conn_connecting: "З'єднання…", conn_reconnecting: "Перепідключення…", conn_resuming: "Перепідключення…", conn_closed: "Немає зв'язку",
    home_create: "Створити стіл", table_name: "Назва столу", players: "Гравців", public_table: "Публічний (видно в лобі)",
    your_name: "Ваше ім'я", create: "Створити", join_by_code: "Приєднатися за кодом", code: "Код столу", go: "Перейти",
    lobby: "Публічні столи", lobby_empty: "Зараз немає публічних столів.", refresh: "Оновити",
    finished_tables: "Завершені партії", finished_empty: "Ще немає завершених публічних партій.", replay_link: "Переглянути", finished_match_n: "Партія {n}",
    col_table: "Стіл", col_status: "Стан", col_seats: "Місця", col_scores: "Рахунок", join: "Сісти", watch: "Дивитися",
    status_waiting: "очікує", status_playing: "грають", status_finished: "завершено", status_closed: "закрито",
    round_n: "раунд {n}",
    back_home: "Лобі",
    waiting_title: "Стіл {name} — чекаємо гравців",
    seat_n: "Місце {n}", empty_seat: "Вільно", sit_here: "Сісти тут", move_here: "Пересісти", host: "господар", you: "ви",
    team: "Команда {n}", partners_note: "Партнери сидять навпроти: {a} і {b} проти {c} і {d}.",
    tile_label: "кістка {a}–{b}", side_low: "менший кінець", side_high: "більший кінець", side_lineA: "лінія A", side_lineB: "лінія B", side_branchA: "гілка A", side_branchB: "гілка B",
    table_closed: "Цей стіл закрито: усі пішли.", show_board: "Показати стіл", remove: "Прибрати", leave: "Звільнити місце", you_were_removed: "Господар прибрав вас зі столу; тепер ви глядач.",
    invite: "Посилання-запрошення", copy: "Копіювати", copied: "Скопійовано!", start_match: "Почати партію",
    waiting_for_host: "Чекаємо, поки господар почне гру.", need_all_seats: "Щоб почати, усі місця мають бути зайняті.",
    join_prompt: "Введіть ім'я та виберіть вільне місце.",
    spectating: "Глядач", spectating_note: "Ви дивитеся цей стіл. Руки гравців приховані.",
    stock: "Базар: {n}", board_count: "Сума кінців: {n}", turn_of: "Хід: {name}", your_turn: "Ваш хід",
    tiles_n: "{n} кісток", tiles_n_one: "{n} кістка", tiles_n_few: "{n} кістки",
    draw: "Добрати", pass: "Пас", must_play: "треба зіграти", must_play_note: "Ви добрали {tile}: її треба зіграти.",
    no_moves_draw: "Немає ходу: доберіть з базару.", no_moves_pass: "Немає ходу і базар порожній: пас.",
    select_tile: "Виберіть кістку, потім місце на столі.",
    scores: "Рахунок", log: "Ходи", log_empty: "Ходів ще немає.",
    log_open: "{name} почав(ла) з {tile}", log_place: "{name}: {tile} до {place}",
    log_draw: "{name} добрав(ла) кістку", log_draw_you: "{name} добрав(ла) {tile}", log_pass: "{name}: пас", log_auto: "(автоматично)",
    round_over: "Раунд {n} завершено", result_domino: "{name} виставив(ла) усі кістки.", result_blocked: "Риба: ніхто не може походити, за вихід очок немає; залишки в руках усе одно віднімаються (R21, R22).",
    col_player: "Гравець", col_hand: "Рука", col_pips: "Очки", col_rounded: "Округлено", col_deduction: "Мінус",
    new_scores: "Новий рахунок", next_round: "Готовий(а) до наступного раунду", ready_waiting: "Готові: {names}. Наступний раунд почнеться, коли всі будуть готові, або за кілька секунд.",
    ready_list: "Готові: {names}. Наступний раунд почнеться, щойно всі будуть готові.", next_round_in: "Наступний раунд через {n} с",
    match_over: "Партію завершено", winner_is: "Переможець: {name}", final_scores: "Підсумковий рахунок", rematch: "Реванш",
    rematch_votes: "За реванш: {names}",
    side_label: "{names}",
    zoom_in: "Збільшити", zoom_out: "Зменшити", zoom_reset: "Вмістити",
    board_label: "Викладка", hand_label: "Ваша рука",
    err_generic: "Помилка: {msg}",
    err_not_your_turn: "Зараз не ваш хід.", err_illegal_move: "Такий хід заборонено: {msg}",
    err_stale: "Стан столу змінився; показуємо актуальний.", err_conflict: "Інший хід був першим; показуємо актуальний стан.",
    err_round_over: "Раунд завершено.", err_not_started: "Партія ще не почалася.",
    err_seat_taken: "Це місце зайняте.", err_already_started: "Партія вже почалася.",
    err_seats_not_filled: "Щоб почати, усі місця мають бути зайняті.", err_not_host: "Це може зробити лише господар.",
    err_invalid_name: "Введіть ім'я (1–24 символи).", err_not_found: "Стола з таким кодом немає.", err_removed: "Господар стола прибрав вас із цього стола.", err_banned: "Цю адресу заблоковано на цьому сервері.",
    err_unauthorized: "Ваш ключ місця тут недійсний.", err_spectator: "Глядачі не можуть ходити.",
    chat: "Чат", chat_say: "Напишіть щось…", chat_send: "Надіслати", chat_quick: "Швидкі повідомлення",
    chat_spectator: "Глядач", chat_spectators_tag: "[глядачі]", chat_off: "Господар вимкнув чат глядачів.",
    chat_spectators_allowed: "Глядачі можуть писати в чат", chat_mute: "Приховати повідомлення…",
    chat_report: "Поскаржитися на повідомлення", report_reason: "Чому?", report_reason_abuse: "Образи",
    report_reason_spam: "Спам", report_reason_cheating: "Шахрайство", report_reason_name: "Образливе ім'я",
    report_reason_other: "Інше", report_text: "Що сталося? (необов'язково)", report_send: "Поскаржитися",
    report_cancel: "Скасувати", report_done: "Дякуємо: оператор сервера це перегляне.",
    host_remove: "Прибрати автора", host_block: "Прибрати й заблокувати", host_removed: "Прибрано.",
    quick_good_move: "Гарний хід!", quick_well_played: "Добре зіграно", quick_hurry_up: "Швидше", quick_thanks: "Дякую",
    quick_gg: "Гарна гра", quick_oops: "Ой", quick_hello: "Привіт!",
    quick_emote_smile: "усмішка", quick_emote_laugh: "сміх", quick_emote_wow: "ого", quick_emote_sad: "сум",
    quick_emote_thumbs_up: "клас", quick_emote_clap: "оплески",
    err_rate_limited: "Забагато повідомлень поспіль; зачекайте трохи.",
    err_too_many_tries: "Забагато спроб, зачекайте {s} с.",
    err_too_many_practice_tables: "У вас уже найбільше тренувальних столів у грі; завершіть або покиньте один.",
    err_chat_off: "Господар вимкнув чат глядачів.", err_bad_chat: "Повідомлення має містити від 1 до 200 символів.",
    spectators_n: "Дивляться: {n}", players_online_n: "Гравців тут: {n} з {of}",
    err_network: "Помилка мережі — спробуйте ще раз.",
    err_table_closed: "Цей стіл закрито.", err_unavailable: "Сервер зараз не має доступу до бази даних; спробуйте трохи згодом.",
    err_not_round_over: "Наступний раунд уже почався.", err_too_large: "Запит завеликий.",
    err_bad_seat: "Такого місця немає.", err_match_not_over: "Партія ще не завершилася.", err_bad_players: "За столом 2, 3 або 4 гравці.",
    loading: "Завантаження…", match_n: "Партія {n}",
    keyboard_help: "Клавіші: ←/→ вибір кістки, Enter — взяти, далі ←/→ вибір місця і Enter — хід; D — добрати, P — пас, Esc — скасувати, +/− масштаб.",
    description: "Опис викладки",

    // --- issue 11 ---
    pts_none: "0", pts_label: "{raw} → +{disp}",
    choose_place_few: "Вибрано {tile}: показано {n} місця з очками, які додасться до рахунку. Клацніть місце, щоб походити; Esc або порожнє сукно — скасувати.",
    choose_place: "Вибрано {tile}: показано {n} місць з очками, які додасться до рахунку. Клацніть місце, щоб походити; Esc або порожнє сукно — скасувати.",
    confirm_single: "{tile} можна поставити лише в одне місце (показано з очками). Клацніть його або ще раз кістку, щоб походити; Esc або порожнє сукно — скасувати.",
    sending: "Хід…",
    score_sheet: "Записник рахунку", sheet_round: "Раунд", sheet_result: "Підсумок", sheet_in_play: "триває",
    sheet_blocked: "риба", sheet_domino: "{name} вийшов(ла)", sheet_tally: "Рахунок рисками (R26)",
    sheet_cell_title: "набрано +{made}, мінус −{ded}, разом {total}", sheet_review: "Раунд {n}: остання викладка і підрахунок",
    table_name_optional: "Назва столу (необов'язково: інакше — ваше ім'я)", table_name_placeholder: "ваше ім'я",
    name_limit: "До {max} символів.", name_too_long: "{n} символів: ім'я має бути не довше {max}.",
    table_full_watch: "Усі місця зайняті: ви дивитеся цей стіл.",
    log_on_end: "{name}: {tile} до кінця {value} кістки {parent}",
    log_on_spinner: "{name}: {tile} до спінера {parent}, {dir} {part}", log_on_spinner_plain: "{name}: {tile} до спінера {parent} ({part})",
    part_line: "лінія", part_branch: "гілка",
    dir_left_line: "ліва", dir_right_line: "права", dir_up_line: "верхня", dir_down_line: "нижня",
    dir_left_branch: "ліва", dir_right_branch: "права", dir_up_branch: "верхня", dir_down_branch: "нижня",
    open_end_label: "відкритий кінець: {value}",
    sound_on: "Звук: увімк.", sound_off: "Звук: вимк.", rules_link: "Правила", profile_link_top: "Профіль", games_link_top: "Ігри", mute: "Вимкнути звук",
    hint_text: "Уперше тут? Кожен дубль — спінер: коли обидві його сторони закриті, від нього відкриваються ще дві гілки. Сума кінців — це сума відкритих кінців; коли вона кратна 5, той, хто щойно походив, отримує її (5 = 1 очко).",
    hint_rules: "Прочитати правила", hint_ok: "Зрозуміло",
    show_log: "Ходи й рахунок",
    hero_title: "Доміно з друзями, рахунок — п'ятірками", hero_play: "Грати з друзями", hero_watch: "Дивитися гру",
    hero_rules: "Як грати", hero_board_caption: "Відкриті кінці: 2–2 дає 4, 3–3 дає 6, ще 1 і 4: на столі 15, +3 очки.", hero_board_label: "Викладка «П'ять»: спінер 5–5 з кістками на лініях і гілках",
    no_live_tables: "Зараз ніхто не грає.", looking_for: "шукають {n} гравців", looking_for_one: "шукають {n} гравця", looking_for_few: "шукають {n} гравців",
    close: "Закрити", scores_after: "Рахунок після раунду: {scores}", show_results: "показати підсумки",
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

/** Points as the log and the targets show them (R3/R15): "15 → +3", or "0". */
export function pointsText(raw) {
  return raw > 0 && raw % 5 === 0 ? t("pts_label", { raw, disp: raw / 5 }) : t("pts_none");
}

/** More strings from a feature's own module ({en: {...}, uk: {...}}), e.g. ui/replay-strings.js. */
export function addStrings(extra) {
  for (const [l, strings] of Object.entries(extra)) Object.assign(DICT[l] || (DICT[l] = {}), strings);
}

// The offline banner, the target announcements in the log's words, and small words
// (ui/table.js, ui/words.js, ui/chat.js, ui/tally.js, ui/settlement.js, ui/names.js).
addStrings({
  en: {
    offline_title: "Connection lost — reconnecting…",
    offline_note: "The table is paused on this screen until the connection is back: nothing you click is sent.",
    target_open: "Open with {tile}", target_on_end: "Play {tile} on the {value} end of {parent}",
    target_on_spinner: "Play {tile} on the {parent} spinner, {dir} {part}", target_on_spinner_plain: "Play {tile} on the {parent} spinner ({part})",
    chat_count: "{n}/{max}", chat_full: "{max}/{max}: a message holds at most {max} characters.",
    tally_negative: "Crossed out: the score is below zero ({n})",
    ready_list_none: "Nobody is ready yet. The next round starts as soon as everyone is ready.",
    ready_waiting_none: "Nobody is ready yet. The next round starts when everyone is ready or after a short countdown.",
    practice_table: "Practice",
  },
  uk: {
    offline_title: "Зв'язок утрачено — перепідключення…",
    offline_note: "Стіл на цьому екрані призупинено, доки не повернеться зв'язок: ваші натискання не надсилаються.",
    target_open: "Почати з {tile}", target_on_end: "Поставити {tile} до кінця {value} кістки {parent}",
    target_on_spinner: "Поставити {tile} до спінера {parent}, {dir} {part}", target_on_spinner_plain: "Поставити {tile} до спінера {parent} ({part})",
    chat_count: "{n}/{max}", chat_full: "{max}/{max}: повідомлення містить щонайбільше {max} символів.",
    tally_negative: "Закреслено: рахунок нижче нуля ({n})",
    ready_list_none: "Ще ніхто не готовий. Наступний раунд почнеться, щойно всі будуть готові.",
    ready_waiting_none: "Ще ніхто не готовий. Наступний раунд почнеться, коли всі будуть готові, або за кілька секунд.",
    practice_table: "Тренування",
  },
});
