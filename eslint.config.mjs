// ESLint for the browser's scripts (static/): `python3 dev.py test` runs it, with the versions
// dev.py pins, installed from npm into .venv/npm (hence the imports by path: nothing of node's
// lives in the checkout).
const modules = new URL("./.venv/npm/node_modules/", import.meta.url);
const { default: js } = await import(new URL("@eslint/js/src/index.js", modules).href);
const { default: globals } = await import(new URL("globals/index.js", modules).href);

export default [
  js.configs.recommended,
  {
    files: ["static/js/**/*.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: globals.browser },
    rules: {
      eqeqeq: "error",
      "no-var": "error",
      "prefer-const": "error",
      "no-implicit-globals": "error",
      "no-restricted-globals": ["error", { name: "scorekeeper", message: "Modules import each other: no globals between scripts." }],
      "no-restricted-properties": ["error", { object: "window", property: "scorekeeper", message: "Modules import each other: no globals between scripts." }],
    },
  },
  {
    files: ["static/sw.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "script", globals: globals.serviceworker },
  },
];
