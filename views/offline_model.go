package views

// ThemeColor is the colour of the installed app's title bar: the site's
// brand blue (--c-brand of app.css).
const ThemeColor = "#0b5fa5"

// BackgroundColor is the installed app's splash background (--c-bg).
const BackgroundColor = "#f3f5f8"
