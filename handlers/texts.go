package handlers

// The texts customers read, each once, grouped by where they read them.
// Where the provider gives a text of its own, it is shown instead of the
// fallback here.

// Any page.
const (
	msgOops          = "Ой!"
	msgNotFoundTitle = "Страница не найдена"
	msgNotFound      = "Такой страницы нет или она вам недоступна. Проверьте адрес."
	msgServerTitle   = "Что-то пошло не так"
	msgRequestFailed = "Не удалось выполнить запрос. Попробуйте позже."
	msgForbidden     = "Запрос отклонён: он пришёл не со страницы личного кабинета. Обновите страницу и попробуйте ещё раз."
	msgTooLarge      = "Файлы слишком большие. Приложите документы общим размером до 25 МБ."
	msgFormTooLarge  = "В форме слишком много текста. Проверьте, что введено, и отправьте её ещё раз."
	msgMethod        = "Так обратиться к этой странице нельзя."
	msgStoreDown     = "Сервис временно недоступен. Попробуйте позже."
	msgSessionOver   = "Время входа истекло. Войдите ещё раз."
	// A request net/http could not parse, answered before any handler.
	msgBadRequest     = "Запрос не удалось прочитать (ошибка %d). Проверьте адрес и откройте страницу ещё раз."
	msgHeadersTooLong = "Запрос слишком большой (ошибка 431). Удалите cookie этого сайта в браузере и откройте страницу ещё раз."
)

// Sign-in, sign-up and sign-out.
const (
	msgPhoneEmpty     = "Введите номер телефона"
	msgPhoneInvalid   = "Введите номер мобильного телефона в формате +7 (9XX) XXX-XX-XX"
	msgCodeInvalid    = "Введите 4 цифры кода из SMS"
	msgCodeWrong      = "Неверный код. Проверьте его и попробуйте ещё раз."
	msgCodeSent       = "Новый код отправлен."
	msgNoPending      = "Время ввода кода истекло. Введите номер ещё раз."
	msgProfileRetry   = "Код принят, но ваши данные не загрузились. Нажмите «Войти» ещё раз через минуту — новый код не нужен."
	msgFillRequired   = "Пожалуйста, заполните все обязательные поля."
	msgUnknownError   = "Произошла неизвестная ошибка."
	msgNoConnection   = "Не удалось подключиться к серверу. Попробуйте позже."
	msgFirstNameEmpty = "Введите имя"
	msgLastNameEmpty  = "Введите фамилию"
	msgSignOutFailed  = "Не удалось завершить сеанс. Попробуйте выйти ещё раз через минуту."
)

// The personal data.
const (
	msgProfileFailed  = "Не удалось загрузить личные данные. Попробуйте позже."
	msgProfileSaved   = "Не удалось сохранить данные. Попробуйте позже."
	msgNameChars      = "Уберите из поля невидимые и служебные символы: оставьте буквы, пробелы, дефис и апостроф"
	msgNameTooLong    = "Не больше 50 символов"
	msgGenderEmpty    = "Выберите пол"
	msgBirthdayEmpty  = "Введите дату рождения"
	msgBirthdayFormat = "Введите дату рождения в формате дд.мм.гггг, например 15.03.1985"
	msgBirthdayNoDate = "Такой даты нет: проверьте день и месяц"
	msgBirthdayFuture = "Дата рождения должна быть в прошлом"
	msgBirthdayYear   = "Проверьте год рождения"
)

// Orders and their documents.
const (
	msgHotelFailed = "Ошибка при получении информации о заказах в отеле"
	msgOrderFailed = "Не удалось загрузить заказ. Попробуйте позже."
	msgPayOnSite   = "Оплата на сайте"
	msgDocTitle    = "Документ недоступен"
	msgDocCanceled = "Заказ отменён, поэтому документ недоступен."
	msgDocUnpaid   = "Билет будет доступен после оплаты всех билетов заказа."
	msgDocFailed   = "Не удалось получить документ. Попробуйте позже."
	msgNoCalendar  = "Добавить в календарь можно только предстоящий заказ."
)

// Any action on an order: its one-time token.
const (
	msgStaleForm  = "Страница устарела. Проверьте данные и отправьте ещё раз."
	msgInProgress = "Запрос уже отправлен и ещё выполняется. Обновите страницу заказа через минуту."
	msgOrderBusy  = "С этим заказом сейчас выполняется другое действие. Обновите страницу заказа через минуту и проверьте его, прежде чем повторять."
	msgTimedOut   = "Ответ не пришёл вовремя: возможно, действие уже выполнено. Проверьте заказ, прежде чем повторять."
)

// Confirming a lesson.
const (
	msgConfirmed     = "Запись подтверждена"
	msgConfirmFailed = "Не удалось подтвердить запись"
)

// Cancelling.
const (
	msgCancelFailed    = "Не удалось отменить заказ"
	msgLessonCanceled  = "Запись отменена."
	msgRentCanceled    = "Аренда отменена."
	msgHotelCanceled   = "Бронирование отменено."
	msgMoneyBack       = "Деньги на карту вернутся в течение 5-10 дней (максимально возможный срок - 30 дней)."
	msgCancelNoRefund  = "Бронирование отменено, но возврат не оформлен"
	msgCancelQuestion  = "Вы уверены, что хотите отменить заказ?"
	msgCancelUnpaidFee = "Заказ не оплачен, поэтому возвращать нечего."
)

// Refunds.
const (
	msgRefundQuestion    = "Вы уверены что хотите оформить возврат?"
	msgRefundFailed      = "Произошла ошибка при оформлении возврата"
	msgRefundDone        = "Возврат успешно оформлен. Внимание! Деньги на карту вернутся в течение 5-10 дней (максимально возможный срок - 30 дней)."
	msgRefundUnreachable = "Не удалось выполнить запрос"
	msgRefundAquaFailed  = "Ошибка при регистрации возврата"
	msgRefundDirect      = "Дата начала ещё не наступила: причина и документы не нужны."
	msgRefundModeration  = "Дата начала уже наступила, поэтому укажите причину возврата и приложите документы: справка, больничный лист или первая страница паспорта."
	msgRefundSurname     = "Укажите фамилию"
	msgRefundName        = "Укажите имя"
	msgRefundSecondName  = "Отчество — не длиннее 100 букв"
	msgRefundEmail       = "Укажите адрес электронной почты в виде name@example.ru"
	msgRefundPhone       = "Укажите номер телефона в формате +7 (9__) ___-__-__"
	msgRefundReason      = "Укажите причину возврата"
	msgRefundDocuments   = "Приложите подтверждающий документ: справка, больничный лист или первая страница паспорта"
	msgRefundTickets     = "Выберите хотя бы один оплаченный билет"
	msgRefundForeign     = "Вернуть можно только оплаченные билеты этого заказа"
	msgFilesUnreadable   = "Ошибка загрузки файлов"
	msgFilesTooMany      = "Можно приложить не больше 10 файлов. Выберите файлы ещё раз, не больше 10."
	msgFilesTooMuch      = "Документы вместе должны быть не больше 25 МБ. Удалите лишние."
	msgFileTooBig        = "Файл «%s» больше 10 МБ"
	msgFileEmpty         = "Файл «%s» пустой"
	msgFileNotKept       = "Файл «%s» не сохранён: уже приложено 10 файлов или 25 МБ"
	msgUploadsBusy       = "Сейчас сервер принимает много документов, и ваши файлы не загружены. Введённые данные сохранены: выберите файлы ещё раз и отправьте форму через минуту. Если форма открыта в другой вкладке, дождитесь её ответа."
)

// Moving an order: lessons and rents, the water park, the hotel.
const (
	msgMoved           = "Перенос выполнен успешно"
	msgLessonMoveFail  = "Не удалось перенести запись"
	msgNoLessons       = "Нет доступных занятий"
	msgTimetable       = "Не удалось загрузить расписание. Попробуйте позже."
	msgRentMoveFailed  = "Не удалось перенести аренду"
	msgRentMoveLead    = "Выберите день, затем начало и окончание аренды."
	msgNoWindows       = "На данную дату нет доступных окон"
	msgScheduleFailed  = "Не удалось загрузить расписание на этот день. Попробуйте позже или выберите другой день."
	msgPickFrom        = "Выберите время начала."
	msgPickTo          = "Выберите время окончания."
	msgAquaMoved       = "Вы успешно перенесли билеты на другую дату"
	msgAquaFailed      = "Ошибка при оформлении переноса"
	msgNoSessions      = "На эту дату нет подходящих сеансов"
	msgHotelMoved      = "Перенос бронирования выполнен успешно."
	msgHotelDates      = "Ошибка при получении доступных дат"
	msgHotelRegister   = "Ошибка при регистрации переноса номера"
	msgHotelMoveFailed = "Ошибка при переносе бронирования"
	msgNotOffered      = "Этого варианта нет в списке на выбранную дату: выберите другой."
	// A day in a form. The rent page words a bad or out-of-window date its
	// own way, as it always has.
	msgChooseDay       = "Выберите дату."
	msgBadDay          = "Введите дату в формате ДД.ММ.ГГГГ, например 21.11.2026."
	msgBadDate         = "Введите дату в формате ДД.ММ.ГГГГ."
	msgDateOutOfWindow = "Выберите день не раньше сегодняшнего и не позже чем через месяц."
)
