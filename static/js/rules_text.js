// The rules page's text, English and Ukrainian: the project's own reading of the rules
// (rules/RULES.md, R1–R26), shortened for players. Each section has the same shape in
// both languages; `example` names a drawn example (js/rules.js).

export const RULES_TEXT = {
  en: {
    title: "How to play Five Up",
    intro: "Five Up is a domino game for 2, 3 or 4 players (four play in two partnerships). You score whenever the open ends of the layout add up to a multiple of five. The first side to 61 points wins.",
    back: "Back to the tables",
    sections: [
      { h: "Tiles, sides and the goal", rules: [
        ["R1", "One double-six set: 28 tiles, 0–0 to 6–6."],
        ["R2", "2, 3 or 4 players. With four, partners sit opposite (seats 1 and 3 against 2 and 4) and share one score."],
        ["R3", "Points are counted in raw pips and kept as points: 5 raw = 1 point. Every score you see is in points."],
        ["R4", "A match is played to 61 points."],
      ] },
      { h: "Deal and start", rules: [
        ["R5–R6", "Each player gets 5 tiles, hidden from everyone else; the rest is the stock, all of it can be drawn."],
        ["R7–R8", "The first starter is drawn by lot and opens with any tile. Play goes clockwise."],
      ] },
      { h: "The layout and spinners", example: "spinner", rules: [
        ["R9", "Join a tile to an open end showing the same number."],
        ["R10–R11", "Every double is a spinner: it lies crosswise; once both of its line sides are covered, its two branch sides open too, at right angles."],
        ["R12", "The open ends are the free sides of the tiles at the ends of lines and branches."],
      ] },
      { h: "Scoring", example: "scoring", rules: [
        ["R13", "After every placement add up the open ends. A double at an end counts both halves (6–6 counts 12). A double with both lines covered counts nothing itself; an open branch with no tile on it counts nothing."],
        ["R14–R15", "If the sum is a multiple of 5 (and not 0), the player scores it: 10 raw = +2 points, 15 raw = +3."],
        ["R16", "The opening tile and your last tile score the same way."],
      ] },
      { h: "Drawing and passing", rules: [
        ["R17", "If you can place a tile, you must."],
        ["R18", "If you cannot, draw from the stock one tile at a time until one fits, and play that tile."],
        ["R19–R20", "With an empty stock you pass (the table does it for you). When nobody can play and the stock is empty, the round is blocked."],
      ] },
      { h: "End of a round", example: "rounding", rules: [
        ["R21", "A round ends when someone plays their last tile, or when it is blocked (nobody gets anything for going out then)."],
        ["R22", "Every hand is shown. Each player's leftover pips are rounded to the nearest 5 (1–2 down, 3–4 up) and that many points are taken off their own side. Partners are rounded separately. Scores may go below zero."],
        ["R23", "Whoever went out starts the next round; after a blocked round, a new lot."],
      ] },
      { h: "Winning", rules: [
        ["R24", "After a round is settled, a side with 61 or more and the single highest score wins."],
        ["R25", "If the top score is shared, play more rounds until one side leads alone."],
        ["R26", "On paper each point is one stroke; ten strokes make a “house”: a big X with a small x in each gap. The table shows scores this way too."],
      ] },
    ],
    examples: {
      spinner: "6–6 opened the round. Both of its lines are covered (5–6 on the left, 1–6 on the right), so its branches are open: 3–6 went up, the lower branch is still free. The open ends show 5, 1 and 3 (the free branch shows 6 but counts nothing until a tile is on it): 9, nothing scores.",
      scoring: "1–4 opened (1 + 4 = 5: +1 point). 1–1 went on the 1, then 4–4 on the 4. The ends are now two doubles: 1–1 counts 2 and 4–4 counts 8: 10 raw, so +2 points.",
      rounding: "Leftover pips at the end of a round, rounded to the nearest five, cost points:",
      rounding_rows: ["{pips} pips → {rounded} → {ded}"],
    },
  },
  uk: {
    title: "Як грати в «П'ять»",
    intro: "«П'ять» — доміно на 2, 3 або 4 гравців (учотирьох — двома парами). Очки отримуєте щоразу, коли сума відкритих кінців викладки кратна п'яти. Перемагає сторона, що першою набере 61 очко.",
    back: "До столів",
    sections: [
      { h: "Кістки, сторони і мета", rules: [
        ["R1", "Один набір дубль-шість: 28 кісток, від 0–0 до 6–6."],
        ["R2", "2, 3 або 4 гравці. Учотирьох партнери сидять навпроти (місця 1 і 3 проти 2 і 4) і мають спільний рахунок."],
        ["R3", "Очки рахують у сирих точках і записують як очки: 5 сирих = 1 очко. Увесь рахунок на екрані — в очках."],
        ["R4", "Партія триває до 61 очка."],
      ] },
      { h: "Роздача і початок", rules: [
        ["R5–R6", "Кожен отримує 5 кісток, приховані від інших; решта — базар, з нього можна добирати все."],
        ["R7–R8", "Першого, хто ходить, визначає жереб; він починає будь-якою кісткою. Хід іде за годинниковою стрілкою."],
      ] },
      { h: "Викладка і спінери", example: "spinner", rules: [
        ["R9", "Кістку ставлять до відкритого кінця з тим самим числом."],
        ["R10–R11", "Кожен дубль — спінер: лежить упоперек; коли обидві його лінії закриті, відкриваються ще дві гілки під прямим кутом."],
        ["R12", "Відкриті кінці — вільні сторони кісток на кінцях ліній і гілок."],
      ] },
      { h: "Очки", example: "scoring", rules: [
        ["R13", "Після кожного ходу додайте відкриті кінці. Дубль на кінці рахується обома половинами (6–6 — це 12). Дубль із закритими лініями сам нічого не дає; відкрита гілка без кістки теж нічого."],
        ["R14–R15", "Якщо сума кратна 5 (і не 0), гравець її отримує: 10 сирих = +2 очки, 15 сирих = +3."],
        ["R16", "Перша кістка раунду і ваша остання кістка рахуються так само."],
      ] },
      { h: "Добір і пас", rules: [
        ["R17", "Якщо можете поставити кістку — мусите."],
        ["R18", "Якщо не можете — добирайте з базару по одній, доки якась не підійде, і ставте саме її."],
        ["R19–R20", "Коли базар порожній, ви пасуєте (стіл робить це за вас). Якщо ніхто не може походити і базар порожній — риба, раунд заблоковано."],
      ] },
      { h: "Кінець раунду", example: "rounding", rules: [
        ["R21", "Раунд закінчується, коли хтось поставив останню кістку, або рибою (тоді за вихід ніхто нічого не отримує)."],
        ["R22", "Усі руки відкривають. Залишок точок кожного гравця округлюють до найближчих 5 (1–2 вниз, 3–4 вгору) і стільки очок віднімають від його сторони. Партнерів округлюють окремо. Рахунок може стати від'ємним."],
        ["R23", "Наступний раунд починає той, хто вийшов; після риби — новий жереб."],
      ] },
      { h: "Перемога", rules: [
        ["R24", "Після підрахунку раунду перемагає сторона, що має 61 або більше і єдина має найвищий рахунок."],
        ["R25", "Якщо найвищий рахунок спільний, грають далі, доки одна сторона не буде попереду сама."],
        ["R26", "На папері кожне очко — риска; десять рисок — «хатка»: великий X і малий x у кожному куті. Стіл теж так показує рахунок."],
      ] },
    ],
    examples: {
      spinner: "Раунд почали з 6–6. Обидві його лінії закриті (5–6 ліворуч, 1–6 праворуч), тож гілки відкриті: 3–6 пішла вгору, нижня гілка ще вільна. Відкриті кінці: 5, 1 і 3 (вільна гілка показує 6, але нічого не дає, доки на ній немає кістки): 9, очок немає.",
      scoring: "Почали з 1–4 (1 + 4 = 5: +1 очко). 1–1 поставили до 1, потім 4–4 до 4. Тепер на кінцях два дублі: 1–1 дає 2, 4–4 дає 8: 10 сирих, тобто +2 очки.",
      rounding: "Залишок точок у руці наприкінці раунду, округлений до найближчих п'яти, коштує очок:",
      rounding_rows: ["{pips} точок → {rounded} → {ded}"],
    },
  },
};
