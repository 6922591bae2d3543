// English and Ukrainian strings of the profile page (added to i18n.js).
import { addStrings } from "./i18n.js";

addStrings({
  en: {
    profile_title: "Your profile",
    profile_guest_note: "A profile is optional: guests play exactly as before. A profile uses a passkey — no password, no e-mail.",
    profile_sign_up: "Create a profile", profile_handle: "Handle (letters, digits, _ - .)", profile_display_name: "Display name",
    profile_create: "Create with a passkey", profile_sign_in: "Sign in", profile_sign_in_passkey: "Sign in with a passkey",
    profile_signed_in_as: "Signed in as {name} (@{handle})", profile_sessions: "Signed in on {n} devices", profile_sessions_one: "Signed in on {n} device",
    profile_link: "Sign in on another device", profile_link_make: "Show a one-time link", profile_link_note: "Open this link or scan the code on the other device. It works once, until {time}.",
    profile_sign_out: "Sign out", profile_sign_out_all: "Sign out everywhere", profile_delete: "Delete profile",
    profile_delete_confirm: "Delete your profile? Your handle, display name and passkeys are erased.",
    profile_deleted: "Your profile was deleted.", profile_no_passkeys: "This browser cannot use passkeys.",
    profile_link_signing_in: "Signing in with the link…", profile_qr_alt: "QR code of the one-time sign-in link",
    profile_my_tables: "My tables", profile_no_tables: "No table in play: a seat you take while signed in shows here.",
    profile_table_line: "{name} ({code}), seat {seat}", profile_open_here: "Open here",
    profile_friends: "Friends: your friend link, requests, blocks",
    profile_clubs: "Clubs: your groups, their tables and standings",
  },
  uk: {
    profile_title: "Ваш профіль",
    profile_guest_note: "Профіль необов'язковий: гості грають так само, як і раніше. Профіль використовує ключ доступу — без пароля й без пошти.",
    profile_sign_up: "Створити профіль", profile_handle: "Ім'я користувача (літери, цифри, _ - .)", profile_display_name: "Ім'я для гри",
    profile_create: "Створити з ключем доступу", profile_sign_in: "Увійти", profile_sign_in_passkey: "Увійти з ключем доступу",
    profile_signed_in_as: "Ви увійшли як {name} (@{handle})", profile_sessions: "Вхід виконано на {n} пристроях", profile_sessions_one: "Вхід виконано на {n} пристрої",
    profile_link: "Увійти на іншому пристрої", profile_link_make: "Показати одноразове посилання", profile_link_note: "Відкрийте це посилання або скануйте код на іншому пристрої. Воно діє один раз, до {time}.",
    profile_sign_out: "Вийти", profile_sign_out_all: "Вийти на всіх пристроях", profile_delete: "Видалити профіль",
    profile_delete_confirm: "Видалити ваш профіль? Ім'я користувача, ім'я для гри й ключі доступу буде стерто.",
    profile_deleted: "Ваш профіль видалено.", profile_no_passkeys: "Цей браузер не підтримує ключі доступу.",
    profile_link_signing_in: "Вхід за посиланням…", profile_qr_alt: "QR-код одноразового посилання для входу",
    profile_my_tables: "Мої столи", profile_no_tables: "Немає столів у грі: тут з'являться місця, які ви займете після входу.",
    profile_table_line: "{name} ({code}), місце {seat}", profile_open_here: "Відкрити тут",
    profile_friends: "Друзі: ваше посилання, запити, блокування",
    profile_clubs: "Клуби: ваші групи, їхні столи й турнірні таблиці",
  },
});
