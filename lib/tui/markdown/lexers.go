package markdown

import (
	"regexp"

	"github.com/alecthomas/chroma/v2"
)

// The languages fenced code is highlighted in. Chroma's own registry
// (chroma/v2/lexers) builds every one of its ~280 lexers when the process
// starts — 42 M instructions and 2.7 MB before main, 88 % of fluzo-tui's
// start-up work, paid on the way to the first frame even when no code is
// ever shown. So fluzo-tui does not link it: chroma's engine (RegexLexer,
// its token types) runs the rule sets below (22 language families), built only when a
// block in that language is first highlighted (and chroma compiles their
// expressions on first use). A language not listed here is shown plain,
// as an unknown one always was.

// lang is the lexical shape of one language: the rules are made from it.
type lang struct {
	names                []string // the name and aliases of an info string
	lineComments         []string // prefixes running to the end of the line
	blockComment         [2]string
	quotes               string // characters that open one-line strings
	multiline            []string
	keywords, types, fns []string // fns: builtin functions and commands
	caseInsensitive      bool
	extra                []chroma.Rule // language-specific, tried first
}

var cStyle = []string{"//"}

var goLang = lang{
	names: []string{"go", "golang"}, lineComments: cStyle, blockComment: [2]string{"/*", "*/"}, quotes: `"'`,
	multiline: []string{"`[^`]*`"},
	keywords: []string{"break", "case", "chan", "const", "continue", "default", "defer", "else", "fallthrough", "for", "func", "go", "goto", "if", "import",
		"interface", "map", "package", "range", "return", "select", "struct", "switch", "type", "var", "true", "false", "nil", "iota"},
	types: []string{"bool", "byte", "complex64", "complex128", "error", "float32", "float64", "int", "int8", "int16", "int32", "int64", "rune", "string",
		"uint", "uint8", "uint16", "uint32", "uint64", "uintptr", "any"},
	fns: []string{"append", "cap", "clear", "close", "copy", "delete", "len", "make", "max", "min", "new", "panic", "print", "println", "recover"},
}

var rustLang = lang{
	names: []string{"rust", "rs"}, lineComments: cStyle, blockComment: [2]string{"/*", "*/"}, quotes: `"`,
	extra: []chroma.Rule{
		{Pattern: `'(?:\\.|[^'\\\n])'`, Type: chroma.LiteralStringChar},
		{Pattern: `'[A-Za-z_]\w*`, Type: chroma.NameAttribute}, // a lifetime
		{Pattern: `#!?\[[^\]\n]*\]`, Type: chroma.CommentPreproc},
		{Pattern: `[A-Za-z_]\w*!`, Type: chroma.NameFunctionMagic}, // a macro
	},
	keywords: []string{"as", "async", "await", "break", "const", "continue", "crate", "dyn", "else", "enum", "extern", "false", "fn", "for", "if", "impl", "in",
		"let", "loop", "match", "mod", "move", "mut", "pub", "ref", "return", "self", "Self", "static", "struct", "super", "trait", "true", "type", "unsafe",
		"use", "where", "while"},
	types: []string{"bool", "char", "str", "u8", "u16", "u32", "u64", "u128", "usize", "i8", "i16", "i32", "i64", "i128", "isize", "f32", "f64",
		"String", "Vec", "Option", "Result", "Box", "Some", "None", "Ok", "Err"},
}

var pythonLang = lang{
	names: []string{"python", "py", "python3", "py3"}, lineComments: []string{"#"}, quotes: `"'`,
	multiline: []string{`"""[\s\S]*?"""`, `'''[\s\S]*?'''`},
	extra:     []chroma.Rule{{Pattern: `@[A-Za-z_][\w.]*`, Type: chroma.NameDecorator}},
	keywords: []string{"False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue", "def", "del", "elif", "else", "except",
		"finally", "for", "from", "global", "if", "import", "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while", "with",
		"yield", "match", "case"},
	types: []string{"int", "float", "str", "bytes", "bool", "list", "dict", "set", "tuple", "object", "self", "cls"},
	fns:   []string{"print", "len", "range", "open", "isinstance", "super", "enumerate", "zip", "map", "filter", "sorted", "min", "max", "sum", "repr"},
}

var jsKeywords = []string{"break", "case", "catch", "class", "const", "continue", "debugger", "default", "delete", "do", "else", "export", "extends",
	"finally", "for", "function", "if", "import", "in", "instanceof", "let", "new", "of", "return", "super", "switch", "this", "throw", "try", "typeof",
	"var", "void", "while", "with", "yield", "async", "await", "static", "get", "set", "true", "false", "null", "undefined", "from"}

var jsLang = lang{
	names: []string{"javascript", "js", "jsx", "mjs", "cjs", "node"}, lineComments: cStyle, blockComment: [2]string{"/*", "*/"}, quotes: `"'`,
	multiline: []string{"`(?:\\\\[\\s\\S]|[^`\\\\])*`"}, keywords: jsKeywords,
	fns: []string{"console", "require", "JSON", "Math", "Promise", "Object", "Array"},
}

var tsLang = lang{
	names: []string{"typescript", "ts", "tsx"}, lineComments: cStyle, blockComment: [2]string{"/*", "*/"}, quotes: `"'`,
	multiline: jsLang.multiline,
	keywords: append(append([]string(nil), jsKeywords...), "interface", "type", "enum", "implements", "namespace", "declare", "readonly", "private",
		"protected", "public", "abstract", "as", "keyof", "infer", "is", "satisfies"),
	types: []string{"string", "number", "boolean", "any", "unknown", "never", "void", "object", "bigint", "symbol", "Record", "Partial", "Promise"},
}

var cKeywords = []string{"auto", "break", "case", "char", "const", "continue", "default", "do", "double", "else", "enum", "extern", "float", "for",
	"goto", "if", "inline", "int", "long", "register", "restrict", "return", "short", "signed", "sizeof", "static", "struct", "switch", "typedef",
	"union", "unsigned", "void", "volatile", "while", "bool", "true", "false", "NULL"}

var preproc = []chroma.Rule{{Pattern: `^\s*#\s*[a-z]+[^\n]*`, Type: chroma.CommentPreproc}}

var cLang = lang{
	names: []string{"c", "h"}, lineComments: cStyle, blockComment: [2]string{"/*", "*/"}, quotes: `"'`, keywords: cKeywords, extra: preproc,
	types: []string{"size_t", "ssize_t", "int8_t", "int16_t", "int32_t", "int64_t", "uint8_t", "uint16_t", "uint32_t", "uint64_t", "FILE"},
}

var cppLang = lang{
	names: []string{"cpp", "c++", "cc", "cxx", "hpp", "hh"}, lineComments: cStyle, blockComment: [2]string{"/*", "*/"}, quotes: `"'`, extra: preproc,
	keywords: append(append([]string(nil), cKeywords...), "class", "namespace", "template", "typename", "public", "private", "protected", "virtual",
		"override", "final", "new", "delete", "this", "throw", "try", "catch", "using", "nullptr", "constexpr", "noexcept", "auto", "operator", "friend"),
	types: []string{"std", "string", "vector", "map", "size_t", "unique_ptr", "shared_ptr"},
}

var javaLang = lang{
	names: []string{"java", "kotlin", "kt"}, lineComments: cStyle, blockComment: [2]string{"/*", "*/"}, quotes: `"'`,
	extra: []chroma.Rule{{Pattern: `@[A-Za-z_]\w*`, Type: chroma.NameDecorator}},
	keywords: []string{"abstract", "assert", "break", "case", "catch", "class", "const", "continue", "default", "do", "else", "enum", "extends", "final",
		"finally", "for", "if", "implements", "import", "instanceof", "interface", "native", "new", "package", "private", "protected", "public", "return",
		"static", "super", "switch", "synchronized", "this", "throw", "throws", "try", "volatile", "while", "true", "false", "null", "var", "record",
		"fun", "val", "when", "object", "is"},
	types: []string{"boolean", "byte", "char", "double", "float", "int", "long", "short", "void", "String", "Integer", "List", "Map"},
}

var shellLang = lang{
	names:        []string{"sh", "bash", "shell", "zsh", "console", "shell-session", "shellsession", "terminal", "fish", "ksh"},
	lineComments: []string{"#"}, quotes: `"'`,
	extra: []chroma.Rule{
		{Pattern: `\$(?:\{[^}\n]*\}|\(|[A-Za-z_]\w*|[?@#$!*0-9-])`, Type: chroma.NameVariable},
		{Pattern: `(?:^|(?<=\s))--?[A-Za-z0-9][\w-]*`, Type: chroma.NameAttribute}, // a flag
	},
	keywords: []string{"if", "then", "else", "elif", "fi", "for", "while", "until", "do", "done", "case", "esac", "in", "function", "return", "select",
		"export", "local", "readonly", "declare", "set", "unset", "shift", "exit", "time"},
	fns: []string{"echo", "printf", "cd", "pwd", "test", "read", "source", "alias", "eval", "exec", "trap", "cargo", "git", "go", "make", "npm", "ls",
		"cat", "grep", "sed", "awk", "find", "rm", "cp", "mv", "mkdir", "touch", "sudo", "apt-get", "curl", "fluzo"},
}

var sqlLang = lang{
	names: []string{"sql", "sqlite", "postgresql", "postgres", "mysql"}, lineComments: []string{"--"}, blockComment: [2]string{"/*", "*/"}, quotes: `'"`,
	caseInsensitive: true,
	keywords: []string{"select", "from", "where", "and", "or", "not", "insert", "into", "values", "update", "set", "delete", "create", "table", "index",
		"drop", "alter", "add", "primary", "key", "foreign", "references", "join", "left", "right", "inner", "outer", "on", "group", "by", "order",
		"having", "limit", "offset", "as", "distinct", "union", "all", "null", "is", "in", "like", "between", "case", "when", "then", "else", "end",
		"begin", "commit", "rollback", "transaction", "exists", "default", "unique", "with", "returning", "pragma"},
	types: []string{"integer", "int", "text", "real", "blob", "varchar", "char", "boolean", "timestamp", "date", "numeric", "bigint", "serial"},
	fns:   []string{"count", "sum", "avg", "min", "max", "coalesce", "length", "lower", "upper", "json_extract", "datetime"},
}

var csharpLang = lang{
	names: []string{"csharp", "cs", "c#", "swift"}, lineComments: cStyle, blockComment: [2]string{"/*", "*/"}, quotes: `"'`,
	keywords: []string{"abstract", "as", "async", "await", "base", "break", "case", "catch", "class", "const", "continue", "default", "delegate", "do",
		"else", "enum", "event", "explicit", "extern", "false", "finally", "fixed", "for", "foreach", "get", "if", "implicit", "in", "init", "interface",
		"internal", "is", "let", "lock", "namespace", "new", "null", "nil", "operator", "out", "override", "params", "private", "protected", "public",
		"readonly", "record", "ref", "return", "sealed", "set", "static", "struct", "switch", "this", "self", "throw", "true", "try", "typeof", "using",
		"var", "virtual", "void", "while", "yield", "func", "guard", "import", "protocol", "extension", "where"},
	types: []string{"bool", "byte", "char", "decimal", "double", "float", "int", "long", "object", "short", "string", "uint", "ulong", "String", "Int",
		"Double", "Bool", "Task", "List"},
}

var rubyLang = lang{
	names: []string{"ruby", "rb", "crystal"}, lineComments: []string{"#"}, quotes: `"'`,
	extra: []chroma.Rule{{Pattern: `:[A-Za-z_]\w*[?!]?`, Type: chroma.LiteralStringSymbol}, {Pattern: `@{1,2}[A-Za-z_]\w*`, Type: chroma.NameVariable}},
	keywords: []string{"alias", "and", "begin", "break", "case", "class", "def", "defined?", "do", "else", "elsif", "end", "ensure", "false", "for", "if",
		"in", "module", "next", "nil", "not", "or", "redo", "rescue", "retry", "return", "self", "super", "then", "true", "undef", "unless", "until",
		"when", "while", "yield", "require", "attr_reader", "attr_accessor"},
	fns: []string{"puts", "print", "p", "raise", "lambda", "proc"},
}

var luaLang = lang{
	names: []string{"lua"}, lineComments: []string{"--"}, quotes: `"'`, multiline: []string{`--\[\[[\s\S]*?\]\]`, `\[\[[\s\S]*?\]\]`},
	keywords: []string{"and", "break", "do", "else", "elseif", "end", "false", "for", "function", "goto", "if", "in", "local", "nil", "not", "or",
		"repeat", "return", "then", "true", "until", "while"},
	fns: []string{"print", "pairs", "ipairs", "require", "type", "tostring", "tonumber", "error", "pcall", "setmetatable"},
}

var phpLang = lang{
	names: []string{"php"}, lineComments: []string{"//", "#"}, blockComment: [2]string{"/*", "*/"}, quotes: `"'`,
	extra: []chroma.Rule{{Pattern: `<\?php|\?>`, Type: chroma.CommentPreproc}, {Pattern: `\$[A-Za-z_]\w*`, Type: chroma.NameVariable}},
	keywords: []string{"abstract", "array", "as", "break", "case", "catch", "class", "const", "continue", "default", "do", "echo", "else", "elseif",
		"extends", "false", "final", "finally", "fn", "for", "foreach", "function", "if", "implements", "interface", "match", "namespace", "new", "null",
		"private", "protected", "public", "readonly", "return", "static", "switch", "throw", "trait", "true", "try", "use", "while", "yield"},
	types: []string{"int", "float", "string", "bool", "void", "mixed", "self"},
}

var cssLang = lang{
	names: []string{"css", "scss", "less"}, lineComments: []string{"//"}, blockComment: [2]string{"/*", "*/"}, quotes: `"'`,
	extra: []chroma.Rule{
		{Pattern: `[A-Za-z-]+(?=\s*:[^:])`, Type: chroma.NameTag}, // a property
		{Pattern: `#[0-9a-fA-F]{3,8}\b`, Type: chroma.LiteralNumber},
		{Pattern: `[.#][A-Za-z_-][\w-]*`, Type: chroma.NameClass}, // a selector
		{Pattern: `@[A-Za-z-]+`, Type: chroma.Keyword},
		{Pattern: `\$[A-Za-z_-][\w-]*`, Type: chroma.NameVariable},
	},
	keywords: []string{"important", "inherit", "initial", "none", "auto"},
}

var dockerLang = lang{
	names: []string{"dockerfile", "docker", "containerfile"}, lineComments: []string{"#"}, quotes: `"'`, caseInsensitive: true,
	extra: []chroma.Rule{{Pattern: `\$(?:\{[^}\n]*\}|[A-Za-z_]\w*)`, Type: chroma.NameVariable}},
	keywords: []string{"from", "run", "cmd", "label", "expose", "env", "add", "copy", "entrypoint", "volume", "user", "workdir", "arg", "onbuild",
		"stopsignal", "healthcheck", "shell", "as"},
}

var makeLang = lang{
	names: []string{"make", "makefile", "mk", "mf", "just"}, lineComments: []string{"#"}, quotes: `"'`,
	extra: []chroma.Rule{
		{Pattern: `\$(?:\([^)\n]*\)|\{[^}\n]*\}|[@<^*?%])`, Type: chroma.NameVariable},
		{Pattern: `^[^\s:#=][^:#=\n]*(?=:)`, Type: chroma.NameFunction}, // a target
	},
	keywords: []string{"ifeq", "ifneq", "ifdef", "ifndef", "else", "endif", "include", "define", "endef", "export", "override", ".PHONY"},
}

// keyed marks a key before ':' (JSON, YAML) or '=' (TOML) as a tag.
func keyed(sep string) chroma.Rule {
	return chroma.Rule{Pattern: `(?:"(?:\\.|[^"\\\n])*"|[A-Za-z_][\w.-]*)(?=\s*` + sep + `)`, Type: chroma.NameTag}
}

var jsonLang = lang{
	names: []string{"json", "jsonc", "json5", "jsonl", "ndjson"}, quotes: `"`, extra: []chroma.Rule{keyed(":")},
	keywords: []string{"true", "false", "null"},
}

var yamlLang = lang{
	names: []string{"yaml", "yml"}, lineComments: []string{"#"}, quotes: `"'`,
	extra:    []chroma.Rule{keyed(":"), {Pattern: `^---|^\.\.\.|^\s*- `, Type: chroma.Punctuation}},
	keywords: []string{"true", "false", "null", "yes", "no", "on", "off"},
}

var tomlLang = lang{
	names: []string{"toml", "ini", "cfg", "conf", "editorconfig"}, lineComments: []string{"#", ";"}, quotes: `"'`,
	multiline: []string{`"""[\s\S]*?"""`, `'''[\s\S]*?'''`},
	extra:     []chroma.Rule{{Pattern: `^\s*\[\[?[^\]\n]*\]\]?`, Type: chroma.Keyword}, keyed("=")},
	keywords:  []string{"true", "false"},
}

var markupLang = lang{
	names: []string{"html", "xml", "svg", "htm", "xhtml", "vue"}, blockComment: [2]string{"<!--", "-->"},
	extra: []chroma.Rule{
		{Pattern: `</?[A-Za-z][\w:.-]*|/?>`, Type: chroma.NameTag},
		{Pattern: `[A-Za-z_:][\w:.-]*(?==)`, Type: chroma.NameAttribute},
		{Pattern: `"[^"]*"|'[^']*'`, Type: chroma.LiteralString},
		{Pattern: `&[#\w]+;`, Type: chroma.LiteralStringEscape},
		{Pattern: `[^<&"'=\s/>]+`, Type: chroma.Text}, // element text: never a keyword or number
	},
}

// diffRules are line-based: a diff has no tokens, only kinds of lines.
func diffRules() chroma.Rules {
	return chroma.Rules{"root": {
		{Pattern: `^(?:\+\+\+|---)[^\n]*\n?`, Type: chroma.GenericSubheading},
		{Pattern: `^(?:diff|index|@@)[^\n]*\n?`, Type: chroma.GenericSubheading},
		{Pattern: `^\+[^\n]*\n?`, Type: chroma.GenericInserted},
		{Pattern: `^-[^\n]*\n?`, Type: chroma.GenericDeleted},
		{Pattern: `[^\n]*\n?`, Type: chroma.Text},
	}}
}

var diffNames = []string{"diff", "patch", "udiff"}

var languages = []*lang{&goLang, &rustLang, &pythonLang, &jsLang, &tsLang, &cLang, &cppLang, &javaLang, &shellLang, &sqlLang,
	&jsonLang, &yamlLang, &tomlLang, &markupLang, &csharpLang, &rubyLang, &luaLang, &phpLang, &cssLang, &dockerLang, &makeLang}

// newLexer builds the lexer for an info string, or nil when the language
// is not one of ours.
func newLexer(name string) chroma.Lexer {
	for _, d := range diffNames {
		if d == name {
			return chroma.MustNewLexer(&chroma.Config{Name: "diff"}, diffRules)
		}
	}
	for _, l := range languages {
		for _, n := range l.names {
			if n == name {
				return chroma.MustNewLexer(&chroma.Config{Name: l.names[0], CaseInsensitive: l.caseInsensitive}, l.rules)
			}
		}
	}
	return nil
}

// rules turns a lang into chroma's rule list. Order matters: comments and
// strings before anything that could start inside them, keywords before
// identifiers, and a catch-all last so every byte is some token.
func (l *lang) rules() chroma.Rules {
	var r []chroma.Rule
	add := func(pattern string, t chroma.TokenType) { r = append(r, chroma.Rule{Pattern: pattern, Type: t}) }
	add(`\s+`, chroma.TextWhitespace)
	if l.blockComment[0] != "" {
		add(regexp.QuoteMeta(l.blockComment[0])+`[\s\S]*?(?:`+regexp.QuoteMeta(l.blockComment[1])+`|\z)`, chroma.CommentMultiline)
	}
	for _, c := range l.lineComments {
		add(regexp.QuoteMeta(c)+`[^\n]*`, chroma.CommentSingle)
	}
	for _, m := range l.multiline {
		add(m, chroma.LiteralString)
	}
	r = append(r, l.extra...)
	for _, q := range l.quotes {
		s := regexp.QuoteMeta(string(q))
		add(s+`(?:\\.|[^`+s+`\\\n])*`+s, chroma.LiteralString)
	}
	add(`\b(?:0[xX][0-9a-fA-F_]+|0[bB][01_]+|0[oO][0-7_]+|\d[\d_]*(?:\.\d[\d_]*)?(?:[eE][+-]?\d+)?)\w*`, chroma.LiteralNumber)
	if len(l.keywords) > 0 {
		add(chroma.Words(`\b`, `\b`, append([]string(nil), l.keywords...)...), chroma.Keyword)
	}
	if len(l.types) > 0 {
		add(chroma.Words(`\b`, `\b`, append([]string(nil), l.types...)...), chroma.KeywordType)
	}
	if len(l.fns) > 0 {
		add(chroma.Words(`\b`, `\b(?![\w-])`, append([]string(nil), l.fns...)...), chroma.NameBuiltin)
	}
	add(`[A-Za-z_]\w*(?=\s*\()`, chroma.NameFunction)
	add(`[A-Za-z_]\w*`, chroma.Name)
	add(`[-+*/%=<>!&|^~?:]+`, chroma.Operator)
	add(`[(){}\[\];,.@$\\#]`, chroma.Punctuation)
	add(`[\s\S]`, chroma.Text)
	return chroma.Rules{"root": r}
}
