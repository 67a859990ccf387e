// Command oracle runs the real mpi-operator v0.8.2 controller, once per input line, against fake
// clientsets, and prints every object it created. It is the "oracle" side of mpigen's differential
// tests (tests/oracle/harness.py); nothing of mpi-operator is copied here, it is a dependency.
//
// The same program builds against v0.8.0 with `go build -modfile=go.v0.8.0.mod` (its go.sum is
// go.v0.8.0.sum): the two releases differ only inside the controller, which this program calls
// through the same functions, and "operator" below names the release it was built with.
//
// Protocol: JSON lines on stdin, one JSON line out per line in, in order.
//
//	in:  {"id": "...", "mpijob": {...}, "priorityClasses": [{"name": "...", "value": N}],
//	      "gang": "volcano"|"scheduler-plugins"|"", "schedulerName": "...", "clusterDomain": "",
//	      "maxPods": N}                                   (maxPods optional, see below)
//	out: {"id": "...", "operator": "github.com/kubeflow/mpi-operator v0.8.2",
//	      "objects": [...], "error": "...", "panicAt": "...", "counts": {"Pod": N, ...},
//	      "decorations": [...], "omittedPods": N}
//
// How the controller runs: the operator's own options.ServerOption is filled by its own AddFlags
// from the flags the real binary would get (--gang-scheduling, --cluster-domain), then
// controller.NewMPIJobController (exported) is given fake Kubernetes, mpi-operator, Volcano and
// scheduler-plugins clientsets and informers that are never started: the MPIJob and the
// PriorityClasses are put into the informers' indexers (and the MPIJob into the fake mpi-operator
// clientset, for the final status update). Then the controller's unexported
// (*MPIJobController).syncHandler is called exactly once, with the job's namespace/name key,
// through a go:linkname reference to the symbol (no code is copied). The exported alternative,
// Run, cannot reconcile exactly once: it starts worker goroutines that re-enqueue the job on every
// object it creates and retry errors with back-off, and a panic in them kills the process.
//
// Before decoding, the MPIJob goes through asStored (see there), as through an API server.
//
// "objects" lists every object the fake clients saw created, in creation order (Events excluded:
// the controller's event broadcaster writes them asynchronously), with apiVersion/kind filled in.
// Secret data values are replaced by "<redacted>". "counts" counts created objects by kind.
// "decorations" aggregates, over EVERY created Pod and every Job's pod template, the fields gang
// scheduling sets (schedulerName, the scheduling.k8s.io/group-name annotation, the
// scheduling.x-k8s.io/pod-group label), grouped with a count. With "maxPods": N only the first N
// Pods are listed in "objects" ("omittedPods" says how many more were created); counts and
// decorations still cover all of them.
//
// "error" is "" on success, else one of: "decode: ..." (the line or the MPIJob does not decode
// strictly), "flags: ...", "validation: Found validation errors: ..." (the controller's own Warning
// event: the controller creates nothing and syncHandler returns nil), "sync: ..." (syncHandler
// returned an error), "panic: ..." (the controller panicked; "panicAt" names the innermost
// mpi-operator function on the stack). The program never exits on a bad case.
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"strings"
	"sync"
	"time"
	_ "unsafe" // go:linkname

	"github.com/go-logr/logr"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	k8sruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	"k8s.io/client-go/discovery"
	fakediscovery "k8s.io/client-go/discovery/fake"
	kubeinformers "k8s.io/client-go/informers"
	k8sfake "k8s.io/client-go/kubernetes/fake"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	k8stesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"
	schedv1alpha1 "sigs.k8s.io/scheduler-plugins/apis/scheduling/v1alpha1"
	schedtyped "sigs.k8s.io/scheduler-plugins/pkg/generated/clientset/versioned/typed/scheduling/v1alpha1"
	schedfaketyped "sigs.k8s.io/scheduler-plugins/pkg/generated/clientset/versioned/typed/scheduling/v1alpha1/fake"
	volcanofake "volcano.sh/apis/pkg/client/clientset/versioned/fake"

	"github.com/kubeflow/mpi-operator/cmd/mpi-operator/app/options"
	kubeflow "github.com/kubeflow/mpi-operator/pkg/apis/kubeflow/v2beta1"
	kubeflowfake "github.com/kubeflow/mpi-operator/pkg/client/clientset/versioned/fake"
	kubeflowscheme "github.com/kubeflow/mpi-operator/pkg/client/clientset/versioned/scheme"
	informers "github.com/kubeflow/mpi-operator/pkg/client/informers/externalversions"
	"github.com/kubeflow/mpi-operator/pkg/controller"
)

const operatorModule = "github.com/kubeflow/mpi-operator"

// syncHandler is the controller's own (*MPIJobController).syncHandler, reached by its symbol name.
//
//go:linkname syncHandler github.com/kubeflow/mpi-operator/pkg/controller.(*MPIJobController).syncHandler
func syncHandler(c *controller.MPIJobController, key string) error

type priorityClass struct {
	Name  string `json:"name"`
	Value int32  `json:"value"`
}

type request struct {
	ID              string          `json:"id"`
	MPIJob          json.RawMessage `json:"mpijob"`
	PriorityClasses []priorityClass `json:"priorityClasses"`
	Gang            string          `json:"gang"`
	SchedulerName   string          `json:"schedulerName"`
	ClusterDomain   string          `json:"clusterDomain"`
	MaxPods         *int            `json:"maxPods"`
}

type decoration struct {
	Kind            string  `json:"kind"`
	Role            string  `json:"role"`
	SchedulerName   string  `json:"schedulerName"`
	GroupAnnotation *string `json:"groupAnnotation"`
	GroupLabel      *string `json:"groupLabel"`
	Count           int     `json:"count"`
}

type response struct {
	ID          string           `json:"id"`
	Operator    string           `json:"operator"`
	Objects     []map[string]any `json:"objects"`
	Error       string           `json:"error"`
	PanicAt     string           `json:"panicAt,omitempty"`
	Counts      map[string]int   `json:"counts"`
	Decorations []decoration     `json:"decorations"`
	OmittedPods int              `json:"omittedPods,omitempty"`
}

// schedClientset is a fake scheduler-plugins clientset (sigs.k8s.io/scheduler-plugins
// pkg/generated/clientset/versioned.Interface). The generated one, .../versioned/fake, does not
// compile against the client-go v0.35 that mpi-operator v0.8.x requires (its applyconfiguration
// package uses client-go's testing.TypeConverter, removed there), so the generated typed fake is
// wired here to an ordinary object tracker, as the generated clientset would do.
type schedClientset struct {
	k8stesting.Fake
}

func newSchedClientset() *schedClientset {
	scheme := k8sruntime.NewScheme()
	if err := schedv1alpha1.AddToScheme(scheme); err != nil {
		panic(err)
	}
	tracker := k8stesting.NewObjectTracker(scheme, serializer.NewCodecFactory(scheme).UniversalDecoder())
	c := &schedClientset{}
	c.AddReactor("*", "*", k8stesting.ObjectReaction(tracker))
	return c
}

func (c *schedClientset) Discovery() discovery.DiscoveryInterface {
	return &fakediscovery.FakeDiscovery{Fake: &c.Fake}
}

func (c *schedClientset) SchedulingV1alpha1() schedtyped.SchedulingV1alpha1Interface {
	return &schedfaketyped.FakeSchedulingV1alpha1{Fake: &c.Fake}
}

// created is one create call seen by a fake clientset.
type created struct {
	gvr schema.GroupVersionResource
	obj k8sruntime.Object
}

// recorder collects the create calls of several fake clientsets in one order.
type recorder struct {
	mu      sync.Mutex
	objects []created
	events  chan *corev1.Event
}

func (r *recorder) reactor(action k8stesting.Action) (bool, k8sruntime.Object, error) {
	create, ok := action.(k8stesting.CreateAction)
	if !ok {
		return false, nil, nil
	}
	obj := create.GetObject().DeepCopyObject()
	if action.GetResource().Resource == "events" {
		if ev, ok := obj.(*corev1.Event); ok {
			select {
			case r.events <- ev:
			default:
			}
		}
		return false, nil, nil
	}
	r.mu.Lock()
	r.objects = append(r.objects, created{action.GetResource(), obj})
	r.mu.Unlock()
	return false, nil, nil // let the fake's object tracker store it as usual
}

var kinds = map[string]string{
	"pods": "Pod", "services": "Service", "configmaps": "ConfigMap", "secrets": "Secret",
	"jobs": "Job", "podgroups": "PodGroup", "mpijobs": "MPIJob", "priorityclasses": "PriorityClass",
}

var operatorVersion = func() string {
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, dep := range info.Deps {
			if dep.Path == operatorModule {
				return dep.Path + " " + dep.Version
			}
		}
	}
	return operatorModule + " (unknown version)"
}()

func init() {
	// As the operator's main does (cmd/mpi-operator/app/server.go), so Events can reference MPIJobs.
	if err := kubeflowscheme.AddToScheme(clientgoscheme.Scheme); err != nil {
		panic(err)
	}
}

func main() {
	// The oracle's own flags are a flag set of their own: since v0.8.1 the operator's options
	// package registers klog's flags (-v among them) on flag.CommandLine when it is initialized.
	own := flag.NewFlagSet("oracle", flag.ExitOnError)
	verbose := own.Bool("v", false, "keep the controller's klog output (on stderr)")
	cpuProfile := own.String("cpuprofile", "", "write a CPU profile to this file")
	_ = own.Parse(os.Args[1:])
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			fmt.Fprintln(os.Stderr, "oracle:", err)
			os.Exit(2)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			fmt.Fprintln(os.Stderr, "oracle:", err)
			os.Exit(2)
		}
		defer pprof.StopCPUProfile()
	}
	if !*verbose {
		klog.SetLogger(logr.Discard())
	}
	// Cases are independent and short-lived: trade memory for less garbage-collection time.
	debug.SetGCPercent(400)
	in := bufio.NewReaderSize(os.Stdin, 1<<20)
	out := bufio.NewWriterSize(os.Stdout, 1<<20)
	defer out.Flush()
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	for {
		line, err := in.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) > 0 {
			if encErr := enc.Encode(runLine(line)); encErr != nil {
				fmt.Fprintln(os.Stderr, "oracle: encoding a response:", encErr)
				os.Exit(2)
			}
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

func runLine(line []byte) (resp response) {
	resp = response{Operator: operatorVersion, Objects: []map[string]any{}, Counts: map[string]int{},
		Decorations: []decoration{}}
	var req request
	if err := strictDecode(line, &req); err != nil {
		// Best effort to echo the id of a malformed request.
		var idOnly struct {
			ID string `json:"id"`
		}
		_ = json.Unmarshal(line, &idOnly)
		resp.ID = idOnly.ID
		resp.Error = "decode: request: " + err.Error()
		return resp
	}
	resp.ID = req.ID
	runCase(&req, &resp)
	return resp
}

func strictDecode(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return fmt.Errorf("trailing data after the JSON value")
	}
	return nil
}

// asStored round-trips the MPIJob as the API server stores a custom resource: decoded as
// unstructured JSON (integral numbers become int64, others float64) and encoded again with
// encoding/json. So an unquoted quantity such as 1e16 or 0.50 reaches the controller as the API
// server would serve it (10000000000000000, 0.5), not as the request spelled it.
func asStored(raw []byte) ([]byte, error) {
	var obj map[string]interface{}
	if err := utiljson.Unmarshal(raw, &obj); err != nil {
		return nil, err
	}
	return json.Marshal(obj)
}

// gangFlag is the --gang-scheduling value the real binary would be started with.
func gangFlag(req *request) (string, error) {
	switch req.Gang {
	case "":
		return "", nil
	case options.GangSchedulerVolcano:
		return options.GangSchedulerVolcano, nil
	case options.GangSchedulerSchedulerPlugins:
		// Any other non-empty value selects scheduler-plugins, with that value as the pods'
		// schedulerName; without schedulerName the flag is the literal "scheduler-plugins".
		if req.SchedulerName != "" {
			return req.SchedulerName, nil
		}
		return options.GangSchedulerSchedulerPlugins, nil
	}
	return "", fmt.Errorf("unknown gang %q (volcano, scheduler-plugins or empty)", req.Gang)
}

func runCase(req *request, resp *response) {
	job := &kubeflow.MPIJob{}
	if len(req.MPIJob) == 0 || string(req.MPIJob) == "null" {
		resp.Error = "decode: mpijob: missing"
		return
	}
	stored, err := asStored(req.MPIJob)
	if err != nil {
		resp.Error = "decode: mpijob: " + err.Error()
		return
	}
	if err := strictDecode(stored, job); err != nil {
		resp.Error = "decode: mpijob: " + err.Error()
		return
	}
	gang, err := gangFlag(req)
	if err != nil {
		resp.Error = "flags: " + err.Error()
		return
	}
	opt := options.NewServerOption()
	fs := flag.NewFlagSet("mpi-operator", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	opt.AddFlags(fs)
	args := []string{"--namespace=", "--gang-scheduling=" + gang}
	if req.ClusterDomain != "" {
		args = append(args, "--cluster-domain="+req.ClusterDomain)
	}
	if err := fs.Parse(args); err != nil {
		resp.Error = "flags: " + err.Error()
		return
	}

	rec := &recorder{events: make(chan *corev1.Event, 64)}
	var pcs []k8sruntime.Object
	for _, pc := range req.PriorityClasses {
		pcs = append(pcs, &schedulingv1.PriorityClass{ObjectMeta: metav1.ObjectMeta{Name: pc.Name}, Value: pc.Value})
	}
	kubeClient := k8sfake.NewSimpleClientset(pcs...)
	kubeflowClient := kubeflowfake.NewSimpleClientset(job.DeepCopy())
	volcanoClient := volcanofake.NewSimpleClientset()
	schedClient := newSchedClientset()
	kubeClient.PrependReactor("create", "*", rec.reactor)
	kubeflowClient.PrependReactor("create", "*", rec.reactor)
	volcanoClient.PrependReactor("create", "*", rec.reactor)
	schedClient.PrependReactor("create", "*", rec.reactor)
	defer func() {
		// The controller's event broadcaster keeps a reference to kubeClient forever (it has no
		// exported way to stop it): drop what the tracker holds so memory does not grow per case.
		rec.mu.Lock()
		for _, c := range rec.objects {
			if m, err := metaOf(c.obj); err == nil {
				_ = kubeClient.Tracker().Delete(c.gvr, m.GetNamespace(), m.GetName())
			}
		}
		rec.objects = nil // the reactors, hence rec, stay reachable from kubeClient too
		rec.mu.Unlock()
		kubeClient.ClearActions()
	}()

	kubeInformers := kubeinformers.NewSharedInformerFactory(kubeClient, 0)
	kubeflowInformers := informers.NewSharedInformerFactory(kubeflowClient, 0)
	pcInformer := kubeInformers.Scheduling().V1().PriorityClasses()
	mpiJobInformer := kubeflowInformers.Kubeflow().V2beta1().MPIJobs()

	panicked := func() (panicked bool) {
		defer func() {
			if r := recover(); r != nil {
				panicked = true
				resp.Error = fmt.Sprintf("panic: %v", r)
				resp.PanicAt = panicSite()
			}
		}()
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		c, err := controller.NewMPIJobController(ctx, kubeClient, kubeflowClient, volcanoClient, schedClient,
			kubeInformers.Core().V1().ConfigMaps(), kubeInformers.Core().V1().Secrets(),
			kubeInformers.Core().V1().Services(), kubeInformers.Batch().V1().Jobs(),
			kubeInformers.Core().V1().Pods(), pcInformer, mpiJobInformer, opt)
		if err != nil {
			resp.Error = "controller: " + err.Error()
			return false
		}
		for _, obj := range pcs {
			if err := pcInformer.Informer().GetIndexer().Add(obj); err != nil {
				resp.Error = "indexer: " + err.Error()
				return false
			}
		}
		if err := mpiJobInformer.Informer().GetIndexer().Add(job.DeepCopy()); err != nil {
			resp.Error = "indexer: " + err.Error()
			return false
		}
		key, err := cache.MetaNamespaceKeyFunc(job)
		if err != nil {
			resp.Error = "key: " + err.Error()
			return false
		}
		if err := syncHandler(c, key); err != nil {
			resp.Error = "sync: " + err.Error()
		}
		return false
	}()

	rec.mu.Lock()
	objects := append([]created(nil), rec.objects...)
	rec.mu.Unlock()
	if !panicked && resp.Error == "" && len(objects) == 0 {
		// syncHandler returned nil having created nothing: it rejected the job and said why in a
		// Warning event, which its broadcaster delivers asynchronously.
		resp.Error = waitForWarning(rec.events, 5*time.Second)
	}
	render(objects, req.MaxPods, resp)
}

func waitForWarning(events <-chan *corev1.Event, timeout time.Duration) string {
	deadline := time.After(timeout)
	for {
		select {
		case ev := <-events:
			if ev.Type != corev1.EventTypeWarning {
				continue
			}
			if ev.Reason == "ValidationError" {
				return "validation: " + ev.Message
			}
			return "event: " + ev.Reason + ": " + ev.Message
		case <-deadline:
			return "nothing: syncHandler created no object and reported no Warning event"
		}
	}
}

// panicSite names the innermost mpi-operator function on the panicking goroutine's stack.
func panicSite() string {
	pcs := make([]uintptr, 64)
	n := runtime.Callers(3, pcs)
	frames := runtime.CallersFrames(pcs[:n])
	for {
		f, more := frames.Next()
		if strings.HasPrefix(f.Function, operatorModule+"/") {
			return fmt.Sprintf("%s (%s:%d)", strings.TrimPrefix(f.Function, operatorModule+"/"),
				shortFile(f.File), f.Line)
		}
		if !more {
			return ""
		}
	}
}

func shortFile(path string) string {
	if i := strings.Index(path, operatorModule); i >= 0 {
		return path[i:]
	}
	return path
}

func metaOf(obj k8sruntime.Object) (metav1.Object, error) {
	if m, ok := obj.(metav1.Object); ok {
		return m, nil
	}
	return nil, fmt.Errorf("%T has no ObjectMeta", obj)
}

func render(objects []created, maxPods *int, resp *response) {
	type key struct {
		kind, role, schedulerName string
		hasAnnotation, hasLabel   bool
		annotation, label         string
	}
	counts := map[key]int{}
	var order []key
	pods := 0
	for _, c := range objects {
		kind := kinds[c.gvr.Resource]
		if kind == "" {
			kind = c.gvr.Resource
		}
		resp.Counts[kind]++
		var tmpl *corev1.PodTemplateSpec
		switch o := c.obj.(type) {
		case *corev1.Pod:
			tmpl = &corev1.PodTemplateSpec{ObjectMeta: o.ObjectMeta, Spec: o.Spec}
		case *batchv1.Job:
			tmpl = &o.Spec.Template
		}
		if tmpl != nil {
			k := key{kind: kind, role: tmpl.Labels[roleLabel], schedulerName: tmpl.Spec.SchedulerName}
			k.annotation, k.hasAnnotation = tmpl.Annotations[groupAnnotation]
			k.label, k.hasLabel = tmpl.Labels[groupLabel]
			if counts[k] == 0 {
				order = append(order, k)
			}
			counts[k]++
		}
		if kind == "Pod" {
			pods++
			if maxPods != nil && pods > *maxPods {
				resp.OmittedPods++
				continue
			}
		}
		resp.Objects = append(resp.Objects, toMap(c.gvr, kind, c.obj))
	}
	for _, k := range order {
		d := decoration{Kind: k.kind, Role: k.role, SchedulerName: k.schedulerName, Count: counts[k]}
		if k.hasAnnotation {
			d.GroupAnnotation = &k.annotation
		}
		if k.hasLabel {
			d.GroupLabel = &k.label
		}
		resp.Decorations = append(resp.Decorations, d)
	}
}

const (
	groupAnnotation = "scheduling.k8s.io/group-name"   // volcano KubeGroupNameAnnotationKey
	groupLabel      = "scheduling.x-k8s.io/pod-group"  // scheduler-plugins PodGroupLabel
	roleLabel       = "training.kubeflow.org/job-role" // the operator's role label
)

func toMap(gvr schema.GroupVersionResource, kind string, obj k8sruntime.Object) map[string]any {
	data, err := json.Marshal(obj)
	if err != nil {
		return map[string]any{"kind": kind, "marshalError": err.Error()}
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		return map[string]any{"kind": kind, "marshalError": err.Error()}
	}
	if _, ok := m["apiVersion"]; !ok {
		m["apiVersion"] = gvr.GroupVersion().String()
	}
	if _, ok := m["kind"]; !ok {
		m["kind"] = kind
	}
	if kind == "Secret" {
		if data, ok := m["data"].(map[string]any); ok {
			for k := range data {
				data[k] = "<redacted>"
			}
		}
	}
	return m
}
