// Command training-operator runs the real training-operator v1.9.4 manager (PyTorchJob and TFJob
// reconcilers, and the validating webhooks) against the local cluster (make cluster), one process
// per gang mode, each scoped to its own namespace.
//
// It is the release's cmd/training-operator.v1/main.go with the same flags, scheme, manager
// options and setup (controllerv1.SupportedSchemeReconciler, webhooks.SupportedSchemeWebhook, the
// gang-scheduling setup functions of pkg/controller.v1/common). Nothing of training-operator is
// copied; it is a Go module dependency.
//
// What differs from the release's main, and why: its webhook server listens on every interface,
// and its certificates come from pkg/cert's rotator, which writes them to a fixed folder
// (/tmp/k8s-webhook-server/serving-certs, shared by every instance on the machine) for a
// certificate that names only the in-cluster Service. The local cluster listens on loopback only
// and has no Service network, so here the webhook server listens on --webhook-host (127.0.0.1)
// with the certificate in --webhook-cert-dir that the cluster script made for 127.0.0.1, and the
// cluster script registers the release's webhook rules with a URL client config. With
// --webhook-server-port=0 an instance serves no webhooks.
package main

import (
	"errors"
	"flag"
	"os"
	"strings"

	"go.uber.org/zap/zapcore"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/util/flowcontrol"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/healthz"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
	"sigs.k8s.io/controller-runtime/pkg/webhook"
	schedulerpluginsv1alpha1 "sigs.k8s.io/scheduler-plugins/apis/scheduling/v1alpha1"
	"volcano.sh/apis/pkg/apis/scheduling/v1beta1"
	volcanoclient "volcano.sh/apis/pkg/client/clientset/versioned"

	kubeflowv1 "github.com/kubeflow/training-operator/pkg/apis/kubeflow.org/v1"
	"github.com/kubeflow/training-operator/pkg/config"
	controllerv1 "github.com/kubeflow/training-operator/pkg/controller.v1"
	"github.com/kubeflow/training-operator/pkg/controller.v1/common"
	"github.com/kubeflow/training-operator/pkg/webhooks"
)

var (
	scheme   = runtime.NewScheme()
	setupLog = ctrl.Log.WithName("setup")
)

func init() {
	utilruntime.Must(clientgoscheme.AddToScheme(scheme))
	utilruntime.Must(kubeflowv1.AddToScheme(scheme))
	utilruntime.Must(v1beta1.AddToScheme(scheme))
	utilruntime.Must(schedulerpluginsv1alpha1.AddToScheme(scheme))
}

func main() {
	var metricsAddr, probeAddr, gangSchedulerName, namespace, webhookHost, webhookCertDir string
	var enabledSchemes controllerv1.EnabledSchemes
	var controllerThreads, webhookServerPort, clientQps, clientBurst int

	flag.StringVar(&metricsAddr, "metrics-bind-address", "127.0.0.1:8080", "The address the metric endpoint binds to (0 disables it).")
	flag.StringVar(&probeAddr, "health-probe-bind-address", "127.0.0.1:8081", "The address the probe endpoint binds to.")
	flag.Var(&enabledSchemes, "enable-scheme", "Enable scheme(s) as --enable-scheme=tfjob --enable-scheme=pytorchjob, case insensitive.")
	flag.StringVar(&gangSchedulerName, "gang-scheduler-name", "", "volcano, or the scheduler-plugins scheduler's name.")
	flag.StringVar(&namespace, "namespace", "", "The namespace to monitor kubeflow jobs; unset: cluster-wide.")
	flag.IntVar(&controllerThreads, "controller-threads", 1, "Number of worker threads used by the controller.")
	flag.IntVar(&clientQps, "kube-api-qps", 20, "QPS indicates the maximum QPS to the master from this client.")
	flag.IntVar(&clientBurst, "kube-api-burst", 30, "Maximum burst for throttle.")
	// The release's PyTorch and MPI flags, with its defaults (the PyTorch workers' init container).
	flag.StringVar(&config.Config.PyTorchInitContainerImage, "pytorch-init-container-image",
		config.PyTorchInitContainerImageDefault, "The image for pytorch init container")
	flag.StringVar(&config.Config.PyTorchInitContainerTemplateFile, "pytorch-init-container-template-file",
		config.PyTorchInitContainerTemplateFileDefault, "The template file for pytorch init container")
	flag.IntVar(&config.Config.PyTorchInitContainerMaxTries, "pytorch-init-container-max-tries",
		config.PyTorchInitContainerMaxTriesDefault, "The number of tries for the pytorch init container")
	flag.StringVar(&config.Config.MPIKubectlDeliveryImage, "mpi-kubectl-delivery-image",
		config.MPIKubectlDeliveryImageDefault, "The image for mpi launcher init container")
	flag.StringVar(&webhookHost, "webhook-host", "127.0.0.1", "Address the webhook server listens on.")
	flag.IntVar(&webhookServerPort, "webhook-server-port", 0, "Port of the webhook server; 0: no webhooks.")
	flag.StringVar(&webhookCertDir, "webhook-cert-dir", "", "Folder with tls.crt and tls.key for the webhook server.")
	opts := zap.Options{Development: true, StacktraceLevel: zapcore.DPanicLevel}
	opts.BindFlags(flag.CommandLine)
	flag.Parse()
	ctrl.SetLogger(zap.New(zap.UseFlagOptions(&opts)))

	var cacheOpts cache.Options
	if namespace != "" {
		cacheOpts = cache.Options{DefaultNamespaces: map[string]cache.Config{namespace: {}}}
	}
	cfg := ctrl.GetConfigOrDie()
	cfg.RateLimiter = flowcontrol.NewTokenBucketRateLimiter(float32(clientQps), clientBurst)
	mgr, err := ctrl.NewManager(cfg, ctrl.Options{
		Scheme:                 scheme,
		Metrics:                metricsserver.Options{BindAddress: metricsAddr},
		WebhookServer:          webhook.NewServer(webhook.Options{Host: webhookHost, Port: webhookServerPort, CertDir: webhookCertDir}),
		HealthProbeBindAddress: probeAddr,
		Cache:                  cacheOpts,
	})
	if err != nil {
		setupLog.Error(err, "unable to start manager")
		os.Exit(1)
	}
	if err := mgr.AddHealthzCheck("healthz", healthz.Ping); err != nil {
		setupLog.Error(err, "unable to set up health check")
		os.Exit(1)
	}
	if webhookServerPort != 0 {
		if err := mgr.AddReadyzCheck("readyz", mgr.GetWebhookServer().StartedChecker()); err != nil {
			setupLog.Error(err, "unable to set up ready check")
			os.Exit(1)
		}
	} else if err := mgr.AddReadyzCheck("readyz", healthz.Ping); err != nil {
		setupLog.Error(err, "unable to set up ready check")
		os.Exit(1)
	}
	setupControllers(mgr, enabledSchemes, gangSchedulerName, controllerThreads, webhookServerPort != 0)
	setupLog.Info("starting manager")
	if err := mgr.Start(ctrl.SetupSignalHandler()); err != nil {
		setupLog.Error(err, "problem running manager")
		os.Exit(1)
	}
}

// setupControllers is the release's setupControllers, less the wait for the certificate rotator.
func setupControllers(mgr ctrl.Manager, enabledSchemes controllerv1.EnabledSchemes, gangSchedulerName string, controllerThreads int, withWebhooks bool) {
	gangSchedulingSetupFunc := common.GenNonGangSchedulerSetupFunc()
	if strings.EqualFold(gangSchedulerName, string(common.GangSchedulerVolcano)) {
		gangSchedulingSetupFunc = common.GenVolcanoSetupFunc(volcanoclient.NewForConfigOrDie(mgr.GetConfig()))
		validateCRD(mgr, v1beta1.SchemeGroupVersion.WithKind("PodGroup"))
	} else if gangSchedulerName != "" {
		gangSchedulingSetupFunc = common.GenSchedulerPluginsSetupFunc(mgr.GetClient(), gangSchedulerName)
		validateCRD(mgr, schedulerpluginsv1alpha1.SchemeGroupVersion.WithKind("PodGroup"))
	}
	if enabledSchemes.Empty() {
		enabledSchemes.FillAll()
	}
	errMsg := "failed to set up controllers"
	for _, s := range enabledSchemes {
		setupReconcilerFunc, ok := controllerv1.SupportedSchemeReconciler[s]
		if !ok {
			setupLog.Error(errors.New(errMsg), "scheme is not supported", "scheme", s)
			os.Exit(1)
		}
		if err := setupReconcilerFunc(mgr, gangSchedulingSetupFunc, controllerThreads); err != nil {
			setupLog.Error(err, "unable to create controller", "scheme", s)
			os.Exit(1)
		}
		if !withWebhooks {
			continue
		}
		setupWebhookFunc, ok := webhooks.SupportedSchemeWebhook[s]
		if !ok {
			setupLog.Error(errors.New(errMsg), "scheme is not supported", "scheme", s)
			os.Exit(1)
		}
		if err := setupWebhookFunc(mgr); err != nil {
			setupLog.Error(err, "unable to start webhook server", "scheme", s)
			os.Exit(1)
		}
	}
}

func validateCRD(mgr ctrl.Manager, gvk schema.GroupVersionKind) {
	if _, err := mgr.GetRESTMapper().RESTMapping(gvk.GroupKind(), gvk.Version); err != nil {
		if meta.IsNoMatchError(err) {
			setupLog.Error(err, "crd might be missing, please install crd", "apiVersion", gvk.GroupVersion().String(), "kind", gvk.Kind)
		} else {
			setupLog.Error(err, "unable to get crd", "apiVersion", gvk.GroupVersion().String(), "kind", gvk.Kind)
		}
		os.Exit(1)
	}
}
