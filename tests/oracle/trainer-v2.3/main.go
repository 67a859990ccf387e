// Command oracle runs the real runtime framework of Kubeflow Trainer v2.3.0 (its plugins, as the
// TrainJob controller builds them) once per input line against a controller-runtime fake client,
// and prints the objects it builds for a TrainJob: the JobSet, the PodGroup (coscheduling or
// Volcano), the MPI hostfile ConfigMap and SSH Secret, and the runtime snapshot ConfigMap. It is
// the "oracle" side of mpigen's differential tests for TrainJobs (tests/oracle/trainer.py);
// nothing of Trainer is copied here, it is a Go module dependency.
//
// Protocol: JSON lines on stdin, one JSON line out per line in, in order.
//
//	in:  {"id": "...", "trainJob": {TrainJob}, "runtime": {TrainingRuntime or ClusterTrainingRuntime},
//	      "priorityClasses": [{"name": "...", "value": N}]}
//	out: {"id": "...", "operator": "github.com/kubeflow/trainer/v2 v2.3.0",
//	      "defaulted": {"trainJob": {...}, "runtime": {...}}, "objects": [...], "snapshot": {...},
//	      "warnings": [...], "error": "...", "panicAt": "..."}
//
// How the framework runs. The TrainJob and the runtime first get what the API server does to a
// custom resource before it stores it: unknown fields pruned and the CRDs' defaults applied, with
// the API server's own structural-schema code (k8s.io/apiextensions-apiserver: pruning.Prune,
// defaulting.Default) on the CRDs of the Trainer module (manifests/base/crds, path given with
// -crds). "defaulted" echoes both. The runtime is then checked by its validating webhook
// (webhooks.{Cluster,}TrainingRuntimeValidator.ValidateCreate) and goes, with the PriorityClasses
// and the TrainJob, into a fake client. core.New builds the runtimes (TrainingRuntime and
// ClusterTrainingRuntime) with the framework and every plugin of plugins.NewRegistry, as the
// manager does at start-up; the framework is built anew for each case, so the plugin order (Go
// ranges over the registry map) is drawn anew too. The runtime the TrainJob's runtimeRef names
// first validates the TrainJob (ValidateObjects, what the TrainJob webhook calls: "error":
// "validation: ..."), then builds its objects (NewObjects, what the reconciler applies).
//
// "objects" are the apply configurations NewObjects returns, as JSON, in its order (which
// follows the random plugin order), with the SSH Secret's key material replaced by "<redacted>"
// (it is random). "snapshot" is the runtime snapshot ConfigMap NewObjects applies through the
// client itself (read back from the fake client). "error" is "" on success, else "decode: ...",
// "runtime-validation: ...", "validation: ...", "build: ..." or "panic: ..." ("panicAt" names
// the innermost Trainer function on the stack). The program never exits on a bad case.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	apiextensionsinternal "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	structuraldefaulting "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	structuralpruning "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/pruning"
	corev1 "k8s.io/api/core/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	k8sruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"sigs.k8s.io/controller-runtime/pkg/client"
	crfake "sigs.k8s.io/controller-runtime/pkg/client/fake"
	jobsetv1alpha2 "sigs.k8s.io/jobset/api/jobset/v1alpha2"
	schedv1alpha1 "sigs.k8s.io/scheduler-plugins/apis/scheduling/v1alpha1"
	"sigs.k8s.io/yaml"
	volcanov1beta1 "volcano.sh/apis/pkg/apis/scheduling/v1beta1"

	configapi "github.com/kubeflow/trainer/v2/pkg/apis/config/v1alpha1"
	trainer "github.com/kubeflow/trainer/v2/pkg/apis/trainer/v1alpha1"
	jobruntimes "github.com/kubeflow/trainer/v2/pkg/runtime"
	"github.com/kubeflow/trainer/v2/pkg/runtime/core"
	"github.com/kubeflow/trainer/v2/pkg/webhooks"
)

const operator = "github.com/kubeflow/trainer/v2 v2.3.0"

type priorityClass struct {
	Name  string `json:"name"`
	Value int32  `json:"value"`
}

type request struct {
	ID              string          `json:"id"`
	TrainJob        json.RawMessage `json:"trainJob"`
	Runtime         json.RawMessage `json:"runtime"`
	PriorityClasses []priorityClass `json:"priorityClasses"`
}

type response struct {
	ID        string                     `json:"id"`
	Operator  string                     `json:"operator"`
	Defaulted map[string]json.RawMessage `json:"defaulted,omitempty"`
	Objects   []json.RawMessage          `json:"objects"`
	Snapshot  json.RawMessage            `json:"snapshot,omitempty"`
	Warnings  []string                   `json:"warnings"`
	Error     string                     `json:"error"`
	PanicAt   string                     `json:"panicAt,omitempty"`
}

var scheme = k8sruntime.NewScheme()

func init() {
	for _, add := range []func(*k8sruntime.Scheme) error{
		clientgoscheme.AddToScheme, trainer.AddToScheme, jobsetv1alpha2.AddToScheme, schedv1alpha1.AddToScheme,
		volcanov1beta1.AddToScheme,
	} {
		if err := add(scheme); err != nil {
			panic(err)
		}
	}
}

// noIndexer satisfies client.FieldIndexer: the indexes the runtimes register serve the watch
// handlers' List calls only, which building objects never makes.
type noIndexer struct{}

func (noIndexer) IndexField(context.Context, client.Object, string, client.IndexerFunc) error { return nil }

// schemas: kind -> the structural schema of its CRD (the served version), as the API server uses it.
var schemas = map[string]*structuralschema.Structural{}

func loadCRDs(dir string) error {
	for kind, file := range map[string]string{
		trainer.TrainJobKind:               "trainer.kubeflow.org_trainjobs.yaml",
		trainer.TrainingRuntimeKind:        "trainer.kubeflow.org_trainingruntimes.yaml",
		trainer.ClusterTrainingRuntimeKind: "trainer.kubeflow.org_clustertrainingruntimes.yaml",
	} {
		data, err := os.ReadFile(filepath.Join(dir, file))
		if err != nil {
			return err
		}
		var crd apiextensionsv1.CustomResourceDefinition
		if err := yaml.Unmarshal(data, &crd); err != nil {
			return fmt.Errorf("%s: %w", file, err)
		}
		var version *apiextensionsv1.CustomResourceDefinitionVersion
		for i := range crd.Spec.Versions {
			if crd.Spec.Versions[i].Name == trainer.GroupVersion.Version {
				version = &crd.Spec.Versions[i]
			}
		}
		if version == nil || version.Schema == nil {
			return fmt.Errorf("%s: no schema for %s", file, trainer.GroupVersion.Version)
		}
		internal := &apiextensionsinternal.JSONSchemaProps{}
		if err := apiextensionsv1.Convert_v1_JSONSchemaProps_To_apiextensions_JSONSchemaProps(
			version.Schema.OpenAPIV3Schema, internal, nil); err != nil {
			return fmt.Errorf("%s: %w", file, err)
		}
		s, err := structuralschema.NewStructural(internal)
		if err != nil {
			return fmt.Errorf("%s: %w", file, err)
		}
		schemas[kind] = s
	}
	return nil
}

// stored is what the API server keeps of a custom resource: unknown fields pruned, defaults applied.
func stored(raw json.RawMessage) (map[string]any, string, error) {
	var obj map[string]any
	if err := utiljson.Unmarshal(raw, &obj); err != nil {
		return nil, "", err
	}
	kind, _ := obj["kind"].(string)
	s, ok := schemas[kind]
	if !ok {
		return nil, "", fmt.Errorf("unknown kind %q", kind)
	}
	structuralpruning.Prune(obj, s, true)
	structuraldefaulting.Default(obj, s)
	return obj, kind, nil
}

func into(obj map[string]any, typed any) error {
	data, err := json.Marshal(obj)
	if err != nil {
		return err
	}
	return json.Unmarshal(data, typed)
}

func main() {
	crds := flag.String("crds", "", "the Trainer module's manifests/base/crds folder")
	flag.Parse()
	if err := loadCRDs(*crds); err != nil {
		fmt.Fprintln(os.Stderr, "oracle: loading the CRDs:", err)
		os.Exit(2)
	}
	in := bufio.NewReaderSize(os.Stdin, 1<<20)
	out := bufio.NewWriterSize(os.Stdout, 1<<20)
	defer out.Flush()
	for {
		line, err := in.ReadBytes('\n')
		if len(strings.TrimSpace(string(line))) > 0 {
			resp := runCase(line)
			data, mErr := json.Marshal(resp)
			if mErr != nil {
				data, _ = json.Marshal(response{ID: resp.ID, Operator: operator, Error: "encode: " + mErr.Error()})
			}
			out.Write(data)
			out.WriteByte('\n')
			out.Flush()
		}
		if err == io.EOF {
			return
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "oracle: reading stdin:", err)
			os.Exit(2)
		}
	}
}

// innermost names the innermost Trainer function on the panicking goroutine's stack.
func innermost() string {
	pcs := make([]uintptr, 64)
	n := runtime.Callers(3, pcs)
	frames := runtime.CallersFrames(pcs[:n])
	for {
		frame, more := frames.Next()
		if strings.Contains(frame.Function, "github.com/kubeflow/trainer") {
			return fmt.Sprintf("%s (%s:%d)", frame.Function, filepath.Base(frame.File), frame.Line)
		}
		if !more {
			return ""
		}
	}
}

func runCase(line []byte) (resp response) {
	resp = response{Operator: operator, Objects: []json.RawMessage{}, Warnings: []string{}}
	var req request
	if err := json.Unmarshal(line, &req); err != nil {
		resp.Error = "decode: " + err.Error()
		return resp
	}
	resp.ID = req.ID
	defer func() {
		if r := recover(); r != nil {
			resp.Error = fmt.Sprintf("panic: %v", r)
			resp.PanicAt = innermost()
		}
	}()

	jobObj, _, err := stored(req.TrainJob)
	if err != nil {
		resp.Error = "decode: trainJob: " + err.Error()
		return resp
	}
	runtimeObj, runtimeKind, err := stored(req.Runtime)
	if err != nil {
		resp.Error = "decode: runtime: " + err.Error()
		return resp
	}
	resp.Defaulted = map[string]json.RawMessage{}
	resp.Defaulted["trainJob"], _ = json.Marshal(jobObj)
	resp.Defaulted["runtime"], _ = json.Marshal(runtimeObj)

	var trainJob trainer.TrainJob
	if err := into(jobObj, &trainJob); err != nil {
		resp.Error = "decode: trainJob: " + err.Error()
		return resp
	}
	if trainJob.Namespace == "" {
		trainJob.Namespace = metav1.NamespaceDefault
	}
	trainJob.UID = types.UID("trainjob-uid-" + req.ID)
	ctx := context.Background()

	objects := []client.Object{trainJob.DeepCopy()}
	switch runtimeKind {
	case trainer.TrainingRuntimeKind:
		var rt trainer.TrainingRuntime
		if err := into(runtimeObj, &rt); err != nil {
			resp.Error = "decode: runtime: " + err.Error()
			return resp
		}
		if rt.Namespace == "" {
			rt.Namespace = trainJob.Namespace
		}
		if _, err := (&webhooks.TrainingRuntimeValidator{}).ValidateCreate(ctx, &rt); err != nil {
			resp.Error = "runtime-validation: " + err.Error()
			return resp
		}
		objects = append(objects, &rt)
	case trainer.ClusterTrainingRuntimeKind:
		var rt trainer.ClusterTrainingRuntime
		if err := into(runtimeObj, &rt); err != nil {
			resp.Error = "decode: runtime: " + err.Error()
			return resp
		}
		if _, err := (&webhooks.ClusterTrainingRuntimeValidator{}).ValidateCreate(ctx, &rt); err != nil {
			resp.Error = "runtime-validation: " + err.Error()
			return resp
		}
		objects = append(objects, &rt)
	default:
		resp.Error = fmt.Sprintf("decode: runtime: kind %q is not a training runtime", runtimeKind)
		return resp
	}
	for _, pc := range req.PriorityClasses {
		objects = append(objects, &schedulingv1.PriorityClass{ObjectMeta: metav1.ObjectMeta{Name: pc.Name}, Value: pc.Value})
	}
	cl := crfake.NewClientBuilder().WithScheme(scheme).WithObjects(objects...).Build()

	runtimes, err := core.New(ctx, cl, noIndexer{}, &configapi.Configuration{})
	if err != nil {
		resp.Error = "build: core.New: " + err.Error()
		return resp
	}
	rt, ok := runtimes[jobruntimes.RuntimeRefToRuntimeRegistryKey(trainJob.Spec.RuntimeRef)]
	if !ok {
		resp.Error = "validation: unsupported runtime: " + jobruntimes.RuntimeRefToRuntimeRegistryKey(trainJob.Spec.RuntimeRef)
		return resp
	}
	warnings, errs := rt.ValidateObjects(ctx, nil, trainJob.DeepCopy())
	resp.Warnings = append(resp.Warnings, warnings...)
	if len(errs) > 0 {
		resp.Error = "validation: " + errs.ToAggregate().Error()
		return resp
	}
	built, err := rt.NewObjects(ctx, &trainJob)
	if err != nil {
		resp.Error = "build: " + err.Error()
		return resp
	}
	for _, obj := range built {
		data, err := json.Marshal(obj)
		if err != nil {
			resp.Error = "encode: " + err.Error()
			return resp
		}
		var generic map[string]any
		if err := json.Unmarshal(data, &generic); err != nil {
			resp.Error = "encode: " + err.Error()
			return resp
		}
		if generic["kind"] == "Secret" {
			if secretData, ok := generic["data"].(map[string]any); ok {
				for k := range secretData {
					secretData[k] = "<redacted>"
				}
			}
		}
		data, _ = json.Marshal(generic)
		resp.Objects = append(resp.Objects, data)
	}
	var snapshot corev1.ConfigMap
	key := client.ObjectKey{Namespace: trainJob.Namespace, Name: trainJob.Name + "-runtime-snapshot"}
	if err := cl.Get(ctx, key, &snapshot); err == nil {
		snapshot.ManagedFields = nil
		resp.Snapshot, _ = json.Marshal(&snapshot)
	}
	return resp
}
