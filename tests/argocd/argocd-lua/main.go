// Command argocd-lua runs Argo CD resource health scripts and ignoreDifferences jq expressions
// as Argo CD v3.5.1 runs them, with the modules its go.mod pins (gopher-lua v1.1.2, gopher-json,
// sigs.k8s.io/yaml v1.6.0, gojq v0.12.19). It is the test harness of mpigen's Argo CD health
// checks (mpigen/gitops); nothing of Argo CD is copied here, the behaviour below is written after
// reading argoproj/argo-cd at v3.5.1 (commit 109ca7ca71139e514114499d294a492e7910a965):
//
//   - util/lua/lua.go, runLuaWithResourceActionParameters: a new gopher-lua state whose standard
//     libraries are skipped unless UseOpenLibs (argocd-cm's resource.customizations.useOpenLibs.*,
//     false by default; true for the built-in scripts of resource_customizations/); then the
//     package, base and table libraries and a "safe" os library (os.time and os.date only,
//     util/lua/oslib_safe.go) are opened in any case, os is also preloaded for require; a context
//     ends the script after one second; the global actionParams is an empty table and the global
//     obj the object, converted by decodeValue (maps to tables, lists to arrays, numbers of every
//     Go type to Lua numbers, json.Number to a string, anything else to nil).
//   - util/lua/lua.go, ExecuteHealthLua: the value the script returns, if a table, is encoded as
//     JSON by gopher-json and decoded into {status, message}; an empty table (encoded as []) gives
//     an empty status; a status that is none of Unknown, Progressing, Suspended, Healthy, Degraded,
//     Missing becomes Unknown with the message "Lua returned an invalid health status"; nil gives an
//     empty status; any other type is an error.
//   - util/lua/health_test.go, getObj: a test object is read with sigs.k8s.io/yaml.Unmarshal into a
//     map (YAML or JSON alike).
//   - util/argo/normalizers/diff_normalizer.go: an ignoreDifferences jq path expression EXPR is
//     compiled by gojq as del(EXPR) and run on the object as decoded from its JSON; the program
//     must give exactly one result, the normalized object.
//
// Protocol: JSON lines on stdin, one JSON line out per line in, in order.
//
//	argocd-lua health     in:  {"id": "...", "script": "PATH", "object": "PATH", "openLibs": false}
//	                      out: {"id": "...", "status": "...", "message": "...", "error": "..."}
//	argocd-lua normalize  in:  {"id": "...", "object": "PATH", "jq": ["EXPR", ...]}
//	                      out: {"id": "...", "object": {...}, "error": "..."}
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/itchyny/gojq"
	lua "github.com/yuin/gopher-lua"
	luajson "layeh.com/gopher-json"
	"sigs.k8s.io/yaml"
)

const (
	scriptTimeout = time.Second // util/lua/lua.go: context.WithTimeout(..., 1*time.Second)
	jqTimeout     = time.Second // normalizers.DefaultJQExecutionTimeout
	invalidStatus = "Lua returned an invalid health status"
)

var validStatuses = map[string]bool{
	"Unknown": true, "Progressing": true, "Suspended": true, "Healthy": true, "Degraded": true, "Missing": true,
}

type healthRequest struct {
	ID       string `json:"id"`
	Script   string `json:"script"`
	Object   string `json:"object"`
	OpenLibs bool   `json:"openLibs"`
}

type healthStatus struct {
	Status  string `json:"status,omitempty"`
	Message string `json:"message,omitempty"`
}

type healthResponse struct {
	ID string `json:"id"`
	healthStatus
	Error string `json:"error,omitempty"`
}

type normalizeRequest struct {
	ID     string   `json:"id"`
	Object string   `json:"object"`
	JQ     []string `json:"jq"`
}

type normalizeResponse struct {
	ID     string         `json:"id"`
	Object map[string]any `json:"object,omitempty"`
	Error  string         `json:"error,omitempty"`
}

// readObject reads a YAML or JSON object file as Argo CD's health tests do.
func readObject(path string) (map[string]any, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	object := map[string]any{}
	if err := yaml.Unmarshal(data, &object); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return object, nil
}

// safeOs is the os library of gopher-lua reduced to time and date, the two functions Argo CD's
// own safe copy keeps. They are taken from gopher-lua's os library of a scratch state.
func safeOs() map[string]lua.LGFunction {
	scratch := lua.NewState(lua.Options{SkipOpenLibs: true})
	defer scratch.Close()
	lua.OpenOs(scratch)
	module := scratch.GetGlobal(lua.OsLibName).(*lua.LTable)
	funcs := map[string]lua.LGFunction{}
	for _, name := range []string{"time", "date"} {
		funcs[name] = module.RawGetString(name).(*lua.LFunction).GFunction
	}
	return funcs
}

var safeOsFuncs = safeOs()

func openSafeOs(l *lua.LState) int {
	l.Push(l.RegisterModule(lua.OsLibName, safeOsFuncs))
	return 1
}

func loadSafeOs(l *lua.LState) int {
	l.Push(l.SetFuncs(l.NewTable(), safeOsFuncs))
	return 1
}

// toLua converts a decoded JSON value to a Lua value, as Argo CD's decodeValue does.
func toLua(l *lua.LState, value any) lua.LValue {
	switch v := value.(type) {
	case bool:
		return lua.LBool(v)
	case float64:
		return lua.LNumber(v)
	case int:
		return lua.LNumber(v)
	case int32:
		return lua.LNumber(v)
	case int64:
		return lua.LNumber(v)
	case string:
		return lua.LString(v)
	case json.Number:
		return lua.LString(v)
	case []any:
		array := l.CreateTable(len(v), 0)
		for _, item := range v {
			array.Append(toLua(l, item))
		}
		return array
	case map[string]any:
		table := l.CreateTable(0, len(v))
		for key, item := range v {
			table.RawSetH(lua.LString(key), toLua(l, item))
		}
		return table
	}
	return lua.LNil
}

// runHealth runs one health script on one object and returns what Argo CD would show.
func runHealth(script string, object map[string]any, openLibs bool) (healthStatus, error) {
	l := lua.NewState(lua.Options{SkipOpenLibs: !openLibs})
	defer l.Close()
	for _, lib := range []struct {
		name string
		open lua.LGFunction
	}{
		{lua.LoadLibName, lua.OpenPackage},
		{lua.BaseLibName, lua.OpenBase},
		{lua.TabLibName, lua.OpenTable},
		{lua.OsLibName, openSafeOs},
	} {
		if err := l.CallByParam(lua.P{Fn: l.NewFunction(lib.open), NRet: 0, Protect: true}, lua.LString(lib.name)); err != nil {
			return healthStatus{}, err
		}
	}
	l.PreloadModule(lua.OsLibName, loadSafeOs)
	ctx, cancel := context.WithTimeout(context.Background(), scriptTimeout)
	defer cancel()
	l.SetContext(ctx)
	l.SetGlobal("actionParams", l.CreateTable(0, 0))
	l.SetGlobal("obj", toLua(l, object))
	if err := l.DoString(script); err != nil {
		var apiErr *lua.ApiError
		if errors.As(err, &apiErr) && apiErr.Type == lua.ApiErrorRun {
			apiErr.StackTrace = "" // Argo CD drops the stack trace of a run-time error
			return healthStatus{}, apiErr
		}
		return healthStatus{}, err
	}
	returned := l.Get(-1)
	switch returned.Type() {
	case lua.LTNil:
		return healthStatus{}, nil
	case lua.LTTable:
	default:
		return healthStatus{}, fmt.Errorf("expect table output from Lua script, not %s", returned.Type().String())
	}
	encoded, err := luajson.Encode(returned)
	if err != nil {
		return healthStatus{}, err
	}
	var status healthStatus
	if err := json.Unmarshal(encoded, &status); err != nil {
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) && typeErr.Value == "array" {
			return healthStatus{}, nil // an empty table
		}
		return healthStatus{}, err
	}
	if !validStatuses[status.Status] {
		return healthStatus{Status: "Unknown", Message: invalidStatus}, nil
	}
	return status, nil
}

func health(line []byte) any {
	var request healthRequest
	if err := json.Unmarshal(line, &request); err != nil {
		return healthResponse{Error: "request: " + err.Error()}
	}
	response := healthResponse{ID: request.ID}
	script, err := os.ReadFile(request.Script)
	if err != nil {
		response.Error = err.Error()
		return response
	}
	object, err := readObject(request.Object)
	if err != nil {
		response.Error = err.Error()
		return response
	}
	response.healthStatus, err = runHealth(string(script), object, request.OpenLibs)
	if err != nil {
		response.Error = err.Error()
	}
	return response
}

// normalizeOnce applies one jq path expression as an ignoreDifferences entry does.
func normalizeOnce(object map[string]any, expression string) (map[string]any, error) {
	query, err := gojq.Parse(fmt.Sprintf("del(%s)", expression))
	if err != nil {
		return nil, err
	}
	code, err := gojq.Compile(query)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), jqTimeout)
	defer cancel()
	results := code.RunWithContext(ctx, object)
	first, ok := results.Next()
	if !ok {
		return nil, errors.New("JQ patch did not return any data")
	}
	if err, ok := first.(error); ok {
		return nil, fmt.Errorf("JQ patch returned error: %w", err)
	}
	if _, more := results.Next(); more {
		return nil, errors.New("JQ patch returned multiple objects")
	}
	normalized, ok := first.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("JQ patch returned %T, not an object", first)
	}
	return normalized, nil
}

func normalize(line []byte) any {
	var request normalizeRequest
	if err := json.Unmarshal(line, &request); err != nil {
		return normalizeResponse{Error: "request: " + err.Error()}
	}
	response := normalizeResponse{ID: request.ID}
	object, err := readObject(request.Object)
	if err == nil {
		// the normalizer works on the object's JSON, decoded again (jqNormalizerPatch.Apply)
		var encoded []byte
		if encoded, err = json.Marshal(object); err == nil {
			object = map[string]any{}
			err = json.Unmarshal(encoded, &object)
		}
	}
	for _, expression := range request.JQ {
		if err != nil {
			break
		}
		object, err = normalizeOnce(object, expression)
	}
	if err != nil {
		response.Error = err.Error()
		return response
	}
	response.Object = object
	return response
}

func main() {
	modes := map[string]func([]byte) any{"health": health, "normalize": normalize}
	if len(os.Args) != 2 || modes[os.Args[1]] == nil {
		fmt.Fprintln(os.Stderr, "usage: argocd-lua health|normalize < requests (JSON lines)")
		os.Exit(2)
	}
	handle := modes[os.Args[1]]
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<26)
	out := bufio.NewWriter(os.Stdout)
	encoder := json.NewEncoder(out)
	encoder.SetEscapeHTML(false)
	for in.Scan() {
		if err := encoder.Encode(handle(in.Bytes())); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		if err := out.Flush(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
	if err := in.Err(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
