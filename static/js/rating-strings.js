// English and Ukrainian strings of ratings: the leaderboard page, the rated table
// switch, computer players' ratings (added to i18n.js).
import { addStrings } from "./i18n.js";

addStrings({
  en: {
    lb_home_link: "Leaderboard: the ratings of rated matches", lb_title: "Leaderboard", lb_pool_label: "Which matches",
    lb_pool_all: "All", lb_pool_2: "2 players", lb_pool_3: "3 players", lb_pool_4: "4 players (partnerships)",
    lb_rank: "#", lb_player: "Player", lb_rating: "Rating", lb_matches: "Matches",
    lb_computer: "Computer · {level}", lb_provisional: "provisional", lb_provisional_mark: "?",
    lb_empty: "No rated match yet. Create a rated table while signed in to your profile.",
    lb_note: "Ratings move only in rated matches: every seat a signed-in player or a computer player. A rating marked ? is provisional: too few matches to be sure.",
    rated_table: "Rated (signed-in players only)", rated_badge: "Rated",
    bot_level_rated: "{level} · {rating}", seat_profiles_label: "Players with a profile:",
  },
  uk: {
    lb_home_link: "Таблиця рейтингу рейтингових партій", lb_title: "Таблиця рейтингу", lb_pool_label: "Які партії",
    lb_pool_all: "Усі", lb_pool_2: "2 гравці", lb_pool_3: "3 гравці", lb_pool_4: "4 гравці (пари)",
    lb_rank: "№", lb_player: "Гравець", lb_rating: "Рейтинг", lb_matches: "Партій",
    lb_computer: "Комп'ютер · {level}", lb_provisional: "попередній", lb_provisional_mark: "?",
    lb_empty: "Ще немає рейтингових партій. Створіть рейтинговий стіл, увійшовши в профіль.",
    lb_note: "Рейтинг змінюється лише в рейтингових партіях: за кожним місцем гравець із профілем або комп'ютер. Рейтинг із позначкою ? попередній: замало партій, щоб бути певним.",
    rated_table: "Рейтинговий (лише гравці з профілем)", rated_badge: "Рейтинговий",
    bot_level_rated: "{level} · {rating}", seat_profiles_label: "Гравці з профілем:",
  },
});
