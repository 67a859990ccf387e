// Command oracle runs the real training-operator v1.9.4 PyTorchJob and TFJob reconcilers
// (kubeflow.org/v1), once per input line, against fake clients, and prints the PodGroup, Pods
// and Services they created. It is the "oracle" side of mpigen's differential tests for
// PyTorchJob/TFJob (tests/oracle/training.py); nothing of training-operator is copied here, it
// is a Go module dependency.
//
// Protocol: JSON lines on stdin, one JSON line out per line in, in order.
//
//	in:  {"id": "...", "job": {PyTorchJob or TFJob}, "priorityClasses": [{"name": "...", "value": N}],
//	      "gang": "volcano"|"scheduler-plugins", "schedulerName": "...", "maxPods": N}
//	out: {"id": "...", "operator": "github.com/kubeflow/training-operator v1.9.4",
//	      "podgroup": {...}|null, "objects": [...], "counts": {"Pod": N, "Service": N},
//	      "decorations": [...], "error": "...", "panicAt": "..."}
//
// How the controllers run: the job first goes through the operator's own validating webhook
// (pkg/webhooks/{pytorch,tensorflow}: Webhook.ValidateCreate), as the API server would call it;
// a job it refuses gets "error": "validation: ...". Then the reconciler is built by the
// operator's exported NewReconciler with a minimal manager (GetClient, GetScheme, GetConfig,
// GetAPIReader, GetEventRecorderFor) around a controller-runtime fake client, and with the gang
// setup the real binary's --gang-scheduler-name flag selects (common.GenVolcanoSetupFunc with a
// fake Volcano clientset, or common.GenSchedulerPluginsSetupFunc with the fake client and the
// scheduler name). The Kubernetes clientset, pod/service controls and PriorityClass lister that
// NewReconciler derives from the (unreachable) rest config are then replaced by fake ones; the
// PriorityClasses go into the lister's indexer. Reconcile is called once; with Volcano, whose
// control delays pod creation until the PodGroup's phase is no longer Pending, the PodGroup's
// phase is then set to Inqueue and Reconcile is called a second time, as the watch would.
//
// The job reaches the reconciler as an API server would serve it: the request's JSON is
// round-tripped through unstructured JSON (asStored), and the reconciler's Get decodes the spec
// from that stored JSON (the fake client alone would re-encode the typed object and drop empty
// maps such as "requests": {}, which a real API server keeps and which matter to
// CalcPGMinResources).
//
// "podgroup" is the PodGroup as first created (encoding/json of the typed object).
// "objects" lists up to maxPods Pods per replica type and every Service, in creation order.
// "counts" counts created Pods, Services and PodGroups. "decorations" aggregates, over every
// created Pod, the fields gang scheduling sets (schedulerName, the scheduling.k8s.io/group-name
// and volcano.sh/task-spec annotations, the scheduling.x-k8s.io/pod-group label) per replica type.
// With "skipPods": true the Pod creates fail on purpose (see runCase) and "podsSkipped" is set.
// "error" is "" on success, else "decode: ...", "validation: ...", "reconcile: ..." (Reconcile
// returned an error; what was created before is still listed) or "panic: ..." ("panicAt" names
// the innermost training-operator function on the stack). The program never exits on a bad case.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime"
	"sort"
	"strings"

	"github.com/go-logr/logr"
	"github.com/sirupsen/logrus"
	schedulingv1 "k8s.io/api/scheduling/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	k8sruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	kubeinformers "k8s.io/client-go/informers"
	k8sfake "k8s.io/client-go/kubernetes/fake"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	k8stesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/record"
	"k8s.io/klog/v2"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	crfake "sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
	schedv1alpha1 "sigs.k8s.io/scheduler-plugins/apis/scheduling/v1alpha1"
	volcanov1beta1 "volcano.sh/apis/pkg/apis/scheduling/v1beta1"
	volcanofake "volcano.sh/apis/pkg/client/clientset/versioned/fake"

	kubeflowv1 "github.com/kubeflow/training-operator/pkg/apis/kubeflow.org/v1"
	"github.com/kubeflow/training-operator/pkg/controller.v1/common"
	"github.com/kubeflow/training-operator/pkg/controller.v1/control"
	"github.com/kubeflow/training-operator/pkg/controller.v1/pytorch"
	"github.com/kubeflow/training-operator/pkg/controller.v1/tensorflow"
	pytorchwebhook "github.com/kubeflow/training-operator/pkg/webhooks/pytorch"
	tfwebhook "github.com/kubeflow/training-operator/pkg/webhooks/tensorflow"
)

const operator = "github.com/kubeflow/training-operator v1.9.4"

type priorityClass struct {
	Name  string `json:"name"`
	Value int32  `json:"value"`
}

type request struct {
	ID              string          `json:"id"`
	Job             json.RawMessage `json:"job"`
	PriorityClasses []priorityClass `json:"priorityClasses"`
	Gang            string          `json:"gang"`
	SchedulerName   string          `json:"schedulerName"`
	MaxPods         int             `json:"maxPods"`
	SkipPods        bool            `json:"skipPods"`
}

type decoration struct {
	ReplicaType     string  `json:"replicaType"`
	SchedulerName   string  `json:"schedulerName"`
	GroupAnnotation *string `json:"groupAnnotation"`
	TaskSpec        *string `json:"taskSpec"`
	GroupLabel      *string `json:"groupLabel"`
	Count           int     `json:"count"`
}

type response struct {
	ID          string            `json:"id"`
	Operator    string            `json:"operator"`
	PodGroup    json.RawMessage   `json:"podgroup"`
	Objects     []json.RawMessage `json:"objects"`
	Counts      map[string]int    `json:"counts"`
	Decorations []decoration      `json:"decorations"`
	Error       string            `json:"error"`
	PanicAt     string            `json:"panicAt,omitempty"`
	PodsSkipped bool              `json:"podsSkipped,omitempty"`
}

const skipPodsMessage = "oracle: pod creation skipped (skipPods)"

var scheme = k8sruntime.NewScheme()

func init() {
	for _, add := range []func(*k8sruntime.Scheme) error{
		clientgoscheme.AddToScheme, kubeflowv1.AddToScheme, schedv1alpha1.AddToScheme, volcanov1beta1.AddToScheme,
	} {
		if err := add(scheme); err != nil {
			panic(err)
		}
	}
}

// fakeManager is what NewReconciler reads from a manager; nothing else of it is used.
type fakeManager struct {
	manager.Manager
	client client.Client
	rec    record.EventRecorder
}

func (m *fakeManager) GetClient() client.Client                        { return m.client }
func (m *fakeManager) GetScheme() *k8sruntime.Scheme                   { return scheme }
func (m *fakeManager) GetAPIReader() client.Reader                     { return m.client }
func (m *fakeManager) GetEventRecorderFor(string) record.EventRecorder { return m.rec }
func (m *fakeManager) GetConfig() *rest.Config                         { return &rest.Config{Host: "http://127.0.0.1:1"} }

// storedClient serves the job's spec decoded from the stored JSON, as an API server would.
type storedClient struct {
	client.Client
	key  types.NamespacedName
	spec json.RawMessage
}

func (c *storedClient) Get(ctx context.Context, key client.ObjectKey, obj client.Object, opts ...client.GetOption) error {
	if err := c.Client.Get(ctx, key, obj, opts...); err != nil {
		return err
	}
	if key != c.key {
		return nil
	}
	switch job := obj.(type) {
	case *kubeflowv1.PyTorchJob:
		job.Spec = kubeflowv1.PyTorchJobSpec{}
		return json.Unmarshal(c.spec, &job.Spec)
	case *kubeflowv1.TFJob:
		job.Spec = kubeflowv1.TFJobSpec{}
		return json.Unmarshal(c.spec, &job.Spec)
	}
	return nil
}

// asStored round-trips the job as the API server stores a custom resource: unstructured JSON
// (integral numbers become int64, others float64), encoded again.
func asStored(raw []byte) ([]byte, error) {
	var obj map[string]interface{}
	if err := utiljson.Unmarshal(raw, &obj); err != nil {
		return nil, err
	}
	return json.Marshal(obj)
}

func main() {
	logrus.SetOutput(io.Discard)
	klog.SetLogger(logr.Discard())
	ctrl.SetLogger(logr.Discard())
	in := bufio.NewReader(os.Stdin)
	out := bufio.NewWriter(os.Stdout)
	for {
		line, err := in.ReadBytes('\n')
		if len(strings.TrimSpace(string(line))) > 0 {
			resp := handle(line)
			b, merr := json.Marshal(resp)
			if merr != nil {
				b, _ = json.Marshal(response{ID: resp.ID, Operator: operator, Error: "encode: " + merr.Error()})
			}
			out.Write(b)
			out.WriteByte('\n')
			out.Flush()
		}
		if err != nil {
			return
		}
	}
}

func handle(line []byte) (resp *response) {
	resp = &response{Operator: operator, Counts: map[string]int{}, Objects: []json.RawMessage{}, Decorations: []decoration{}}
	var req request
	if err := json.Unmarshal(line, &req); err != nil {
		resp.Error = "decode: " + err.Error()
		return resp
	}
	resp.ID = req.ID
	defer func() {
		if r := recover(); r != nil {
			resp.Error = fmt.Sprintf("panic: %v", r)
			resp.PanicAt = panicSite()
		}
	}()
	runCase(&req, resp)
	return resp
}

// panicSite names the innermost training-operator function on the panicking goroutine's stack.
func panicSite() string {
	pcs := make([]uintptr, 64)
	frames := runtime.CallersFrames(pcs[:runtime.Callers(3, pcs)])
	for {
		f, more := frames.Next()
		if strings.Contains(f.Function, "kubeflow/training-operator") {
			return fmt.Sprintf("%s (%s:%d)", f.Function, f.File[strings.LastIndex(f.File, "/pkg/")+1:], f.Line)
		}
		if !more {
			return ""
		}
	}
}

func runCase(req *request, resp *response) {
	stored, err := asStored(req.Job)
	if err != nil {
		resp.Error = "decode: job: " + err.Error()
		return
	}
	var head struct {
		Kind     string            `json:"kind"`
		Metadata metav1.ObjectMeta `json:"metadata"`
		Spec     json.RawMessage   `json:"spec"`
	}
	if err := json.Unmarshal(stored, &head); err != nil {
		resp.Error = "decode: job: " + err.Error()
		return
	}
	var job client.Object
	var validate func() error
	switch head.Kind {
	case kubeflowv1.PyTorchJobKind:
		j := &kubeflowv1.PyTorchJob{}
		job = j
		validate = func() error {
			_, err := (&pytorchwebhook.Webhook{}).ValidateCreate(context.Background(), j)
			return err
		}
	case kubeflowv1.TFJobKind:
		j := &kubeflowv1.TFJob{}
		job = j
		validate = func() error { _, err := (&tfwebhook.Webhook{}).ValidateCreate(context.Background(), j); return err }
	default:
		resp.Error = fmt.Sprintf("decode: job: kind %q is neither PyTorchJob nor TFJob", head.Kind)
		return
	}
	if err := json.Unmarshal(stored, job); err != nil {
		resp.Error = "decode: job: " + err.Error()
		return
	}
	if job.GetNamespace() == "" {
		job.SetNamespace("default")
	}
	if err := validate(); err != nil {
		resp.Error = "validation: " + err.Error()
		return
	}

	kube := k8sfake.NewSimpleClientset()
	if req.SkipPods {
		// TFJob pods carry the whole cluster in TF_CONFIG: 10,000 of them cost O(n^2) time and
		// memory. With skipPods the first Pod create fails, which ends the sync right after the
		// PodGroup; Pods and their decorations are then not compared.
		kube.PrependReactor("create", "pods", func(k8stesting.Action) (bool, k8sruntime.Object, error) {
			return true, nil, fmt.Errorf(skipPodsMessage)
		})
		resp.PodsSkipped = true
	}
	volcano := volcanofake.NewSimpleClientset()
	base := crfake.NewClientBuilder().WithScheme(scheme).
		WithStatusSubresource(&kubeflowv1.PyTorchJob{}, &kubeflowv1.TFJob{}).Build()
	key := types.NamespacedName{Namespace: job.GetNamespace(), Name: job.GetName()}
	cl := &storedClient{Client: base, key: key, spec: head.Spec}
	if err := base.Create(context.Background(), job.DeepCopyObject().(client.Object)); err != nil {
		resp.Error = "decode: create job: " + err.Error()
		return
	}
	rec := &record.FakeRecorder{} // nil channel: events are dropped
	mgr := &fakeManager{client: cl, rec: rec}

	var setup common.GangSchedulingSetupFunc
	switch req.Gang {
	case "volcano":
		setup = common.GenVolcanoSetupFunc(volcano)
	case "scheduler-plugins":
		name := req.SchedulerName
		if name == "" {
			name = "scheduler-plugins" // the literal --gang-scheduler-name=scheduler-plugins
		}
		setup = common.GenSchedulerPluginsSetupFunc(cl, name)
	default:
		resp.Error = fmt.Sprintf("decode: unknown gang %q", req.Gang)
		return
	}

	factory := kubeinformers.NewSharedInformerFactory(kube, 0)
	pcInformer := factory.Scheduling().V1().PriorityClasses()
	for _, pc := range req.PriorityClasses {
		if err := pcInformer.Informer().GetIndexer().Add(&schedulingv1.PriorityClass{
			ObjectMeta: metav1.ObjectMeta{Name: pc.Name}, Value: pc.Value}); err != nil {
			resp.Error = "decode: priority class: " + err.Error()
			return
		}
	}
	var jc *common.JobController
	var rec2 reconcile.Reconciler
	switch head.Kind {
	case kubeflowv1.PyTorchJobKind:
		r := pytorch.NewReconciler(mgr, setup)
		jc, rec2 = &r.JobController, r
	default:
		r := tensorflow.NewReconciler(mgr, setup)
		jc, rec2 = &r.JobController, r
	}
	jc.KubeClientSet = kube
	jc.PriorityClassLister = pcInformer.Lister()
	jc.PriorityClassInformerSynced = func() bool { return true }
	jc.PodControl = control.RealPodControl{KubeClient: kube, Recorder: rec}
	jc.ServiceControl = control.RealServiceControl{KubeClient: kube, Recorder: rec}

	defer collect(req, resp, kube)
	_, err = rec2.Reconcile(context.Background(), reconcile.Request{NamespacedName: key})
	pg := capturePodGroup(req.Gang, volcano, base, key, resp)
	if err != nil && req.SkipPods && strings.Contains(err.Error(), skipPodsMessage) {
		return
	}
	if err != nil {
		resp.Error = "reconcile: " + err.Error()
		return
	}
	if req.Gang == "volcano" && pg != nil && !req.SkipPods {
		vpg := pg.(*volcanov1beta1.PodGroup)
		vpg.Status.Phase = volcanov1beta1.PodGroupInqueue
		if _, err := volcano.SchedulingV1beta1().PodGroups(key.Namespace).UpdateStatus(context.Background(), vpg, metav1.UpdateOptions{}); err != nil {
			resp.Error = "reconcile: set PodGroup phase: " + err.Error()
			return
		}
		if _, err := rec2.Reconcile(context.Background(), reconcile.Request{NamespacedName: key}); err != nil {
			resp.Error = "reconcile: second pass: " + err.Error()
		}
	}
}

func capturePodGroup(gang string, volcano *volcanofake.Clientset, c client.Client, key types.NamespacedName, resp *response) client.Object {
	var pg client.Object
	if gang == "volcano" {
		list, err := volcano.SchedulingV1beta1().PodGroups(key.Namespace).List(context.Background(), metav1.ListOptions{})
		if err == nil {
			resp.Counts["PodGroup"] = len(list.Items)
			if len(list.Items) > 0 {
				item := list.Items[0]
				item.APIVersion, item.Kind = volcanov1beta1.SchemeGroupVersion.String(), "PodGroup"
				pg = &item
			}
		}
	} else {
		list := &schedv1alpha1.PodGroupList{}
		if err := c.List(context.Background(), list, client.InNamespace(key.Namespace)); err == nil {
			resp.Counts["PodGroup"] = len(list.Items)
			if len(list.Items) > 0 {
				item := list.Items[0]
				item.APIVersion, item.Kind = schedv1alpha1.SchemeGroupVersion.String(), "PodGroup"
				item.ResourceVersion = ""
				pg = &item
			}
		}
	}
	if pg != nil {
		resp.PodGroup, _ = json.Marshal(pg)
		pg = pg.DeepCopyObject().(client.Object)
	}
	return pg
}

func strp(m map[string]string, k string) *string {
	if v, ok := m[k]; ok {
		return &v
	}
	return nil
}

// collect lists the Pods and Services the reconciler created through the fake clientset.
func collect(req *request, resp *response, kube *k8sfake.Clientset) {
	pods, err := kube.CoreV1().Pods("").List(context.Background(), metav1.ListOptions{})
	if err != nil {
		return
	}
	sort.SliceStable(pods.Items, func(i, j int) bool { return pods.Items[i].Name < pods.Items[j].Name })
	listed := map[string]int{}
	decos := map[decoration]int{}
	var order []decoration
	for i := range pods.Items {
		p := &pods.Items[i]
		rtype := p.Labels[kubeflowv1.ReplicaTypeLabel]
		d := decoration{
			ReplicaType:     rtype,
			SchedulerName:   p.Spec.SchedulerName,
			GroupAnnotation: strp(p.Annotations, volcanov1beta1.KubeGroupNameAnnotationKey),
			TaskSpec:        strp(p.Annotations, "volcano.sh/task-spec"),
			GroupLabel:      strp(p.Labels, schedv1alpha1.PodGroupLabel),
		}
		k := decoKey(d)
		if _, seen := decos[k]; !seen {
			order = append(order, d)
		}
		decos[k]++
		if listed[rtype] < req.MaxPods {
			listed[rtype]++
			p.APIVersion, p.Kind = "v1", "Pod"
			b, _ := json.Marshal(p)
			resp.Objects = append(resp.Objects, b)
		}
	}
	resp.Counts["Pod"] = len(pods.Items)
	for _, d := range order {
		d.Count = decos[decoKey(d)]
		resp.Decorations = append(resp.Decorations, d)
	}
	services, err := kube.CoreV1().Services("").List(context.Background(), metav1.ListOptions{})
	if err != nil {
		return
	}
	resp.Counts["Service"] = len(services.Items)
	for i := range services.Items {
		s := &services.Items[i]
		if i < 4*req.MaxPods {
			s.APIVersion, s.Kind = "v1", "Service"
			b, _ := json.Marshal(s)
			resp.Objects = append(resp.Objects, b)
		}
	}
}

// decoKey makes a comparable key of a decoration (pointers compared by value).
func decoKey(d decoration) decoration {
	k := decoration{ReplicaType: d.ReplicaType, SchedulerName: d.SchedulerName}
	for _, p := range []struct {
		src *string
		dst **string
	}{{d.GroupAnnotation, &k.GroupAnnotation}, {d.TaskSpec, &k.TaskSpec}, {d.GroupLabel, &k.GroupLabel}} {
		if p.src != nil {
			v := internString(*p.src)
			*p.dst = v
		}
	}
	return k
}

var interned = map[string]*string{}

func internString(s string) *string {
	if p, ok := interned[s]; ok {
		return p
	}
	p := &s
	interned[s] = p
	return p
}
