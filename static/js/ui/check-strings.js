// English and Ukrainian strings of the record-check page (added to i18n.js).
import { addStrings } from "../i18n.js";

addStrings({
  en: {
    check_title: "Check a match record",
    check_intro: "A record you downloaded from a replay (text or JSON) is replayed here by the rules engine: every deal, move, point and score. Each round's deal is also checked in this browser against the seed revealed after it.",
    check_file_label: "Record file", check_paste_label: "…or paste it here",
    check_paste_placeholder: "[Format \"fiveup-record/1\"] …",
    check_button: "Check the record", check_checking: "Checking…", check_empty: "Choose a file or paste a record first.",
    check_valid: "Valid: every move follows the rules.",
    check_invalid: "Not valid — line {line}: {problem}",
    check_summary: "Table {table}, match {match}: {rounds} finished rounds; {scores}.",
    check_round: "Round {n}",
    check_too_large: "That file is too large to be a match record (at most 1 MiB).",
    check_too_often: "Too many checks from here: wait {s} s and try again.",
    check_failed: "The check could not be made: try again.",
    check_link: "Check a downloaded record",
  },
  uk: {
    check_title: "Перевірити запис партії",
    check_intro: "Запис, завантажений з повтору (текст або JSON), тут відтворює рушій правил: кожну роздачу, хід, очки й рахунок. Роздачу кожного раунду ще й перевіряє цей браузер за розкритим після раунду зерном.",
    check_file_label: "Файл запису", check_paste_label: "…або вставте його сюди",
    check_paste_placeholder: "[Format \"fiveup-record/1\"] …",
    check_button: "Перевірити запис", check_checking: "Перевіряємо…", check_empty: "Спершу виберіть файл або вставте запис.",
    check_valid: "Правильний: кожен хід за правилами.",
    check_invalid: "Неправильний — рядок {line}: {problem}",
    check_summary: "Стіл {table}, партія {match}: завершених раундів — {rounds}; {scores}.",
    check_round: "Раунд {n}",
    check_too_large: "Файл завеликий для запису партії (не більше 1 МіБ).",
    check_too_often: "Забагато перевірок звідси: зачекайте {s} с і спробуйте знову.",
    check_failed: "Не вдалося перевірити: спробуйте ще раз.",
    check_link: "Перевірити завантажений запис",
  },
});
