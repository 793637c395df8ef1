package core

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
)

// DescribeJSONError says why data did not decode, in the user's terms:
// "path: expected a string, found a JSON number" rather than the decoder's
// "cannot unmarshal number into Go struct field viewArgs.path of type
// string", which names Go types the user never wrote. Every message about
// JSON input (ports, tool arguments, scenarios) goes through it.
func DescribeJSONError(err error) string {
	var typeErr *json.UnmarshalTypeError
	var syntaxErr *json.SyntaxError
	switch {
	case errors.As(err, &typeErr) && typeErr.Field != "":
		return fmt.Sprintf("%s: expected %s, found a JSON %s", typeErr.Field, JSONTypeName(typeErr.Type), typeErr.Value)
	case errors.As(err, &typeErr):
		return fmt.Sprintf("expected %s, found a JSON %s", JSONTypeName(typeErr.Type), typeErr.Value)
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) || strings.Contains(err.Error(), "unexpected end of JSON input"):
		return "the JSON ends early"
	case errors.As(err, &syntaxErr):
		return fmt.Sprintf("not valid JSON at byte %d: %s", syntaxErr.Offset, syntaxErr.Error())
	}
	msg := err.Error()
	if field, ok := strings.CutPrefix(msg, "json: unknown field "); ok {
		return "unknown field " + field
	}
	return strings.TrimPrefix(msg, "json: ")
}

// JSONTypeName names a Go type as the JSON value a user would write.
func JSONTypeName(t reflect.Type) string {
	if t == nil {
		return "a JSON value"
	}
	switch t.Kind() {
	case reflect.Pointer:
		return JSONTypeName(t.Elem())
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a whole number"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "an array of " + plural(JSONTypeName(t.Elem()))
	case reflect.Map:
		return "an object of " + plural(JSONTypeName(t.Elem()))
	case reflect.Struct:
		return "an object"
	}
	return "a JSON value"
}

func plural(name string) string {
	switch {
	case name == "true or false":
		return "booleans"
	case strings.HasPrefix(name, "an "):
		return strings.TrimPrefix(name, "an ") + "s"
	}
	return strings.TrimPrefix(name, "a ") + "s"
}
