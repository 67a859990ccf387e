// Command mpi-operator runs the real mpi-operator v0.8.2 MPIJob controller against the local
// cluster (make cluster), one process per gang mode, each scoped to its own namespace.
//
// The controller is built exactly as the release's cmd/mpi-operator/app.Run builds it: the
// operator's own options.ServerOption filled by its own AddFlags (--gang-scheduling, --namespace,
// --cluster-domain, ...), its client sets, informer factories scoped to --namespace, and
// controller.NewMPIJobController, then controller.Run. Nothing of mpi-operator is copied; it is a
// Go module dependency.
//
// What differs from app.Run, and why: app.Run serves its leader-election health check on
// ":8080", a port fixed in the code (app.healthCheckPort) on every interface. Three instances on
// one machine cannot share it, and the local cluster listens on loopback only. So this command
// does not run leader election (one instance per namespace needs none) and serves no health
// endpoint; with --monitoring-port it serves the operator's Prometheus metrics on
// 127.0.0.1:<port> (the release binds every interface).
//
// klog's flags are registered by the operator's options package itself (its init, since v0.8.1,
// also opts into klog's fixed stderrthreshold behaviour), as the release's main relies on.
package main

import (
	"context"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"

	"github.com/prometheus/client_golang/prometheus/promhttp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	kubeapiserver "k8s.io/apiserver/pkg/server"
	kubeinformers "k8s.io/client-go/informers"
	kubeclientset "k8s.io/client-go/kubernetes"
	clientgokubescheme "k8s.io/client-go/kubernetes/scheme"
	restclientset "k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/klog/v2"
	schedclientset "sigs.k8s.io/scheduler-plugins/pkg/generated/clientset/versioned"
	volcanoclient "volcano.sh/apis/pkg/client/clientset/versioned"

	"github.com/kubeflow/mpi-operator/cmd/mpi-operator/app/options"
	mpijobclientset "github.com/kubeflow/mpi-operator/pkg/client/clientset/versioned"
	kubeflowscheme "github.com/kubeflow/mpi-operator/pkg/client/clientset/versioned/scheme"
	informers "github.com/kubeflow/mpi-operator/pkg/client/informers/externalversions"
	controllersv1 "github.com/kubeflow/mpi-operator/pkg/controller"
)

func main() {
	opt := options.NewServerOption()
	opt.AddFlags(flag.CommandLine)
	flag.Parse()
	if err := run(opt); err != nil {
		klog.Fatalf("%v", err)
	}
}

func run(opt *options.ServerOption) error {
	if opt.MonitoringPort != 0 {
		addr := net.JoinHostPort("127.0.0.1", fmt.Sprint(opt.MonitoringPort))
		go func() {
			mux := http.NewServeMux()
			mux.Handle("/metrics", promhttp.Handler())
			klog.Error(http.ListenAndServe(addr, mux))
		}()
	}
	namespace := opt.Namespace
	if namespace == corev1.NamespaceAll {
		klog.Info("Using cluster scoped operator")
	} else {
		klog.Infof("Scoping operator to namespace %s", namespace)
	}
	klog.Infof("Server options: %+v", opt)

	if kubeconfig := os.Getenv("KUBECONFIG"); kubeconfig != "" {
		opt.Kubeconfig = kubeconfig // as app.Run: the environment wins over --kubeConfig
	}
	cfg, err := clientcmd.BuildConfigFromFlags(opt.MasterURL, opt.Kubeconfig)
	if err != nil {
		return fmt.Errorf("building kubeconfig: %w", err)
	}
	cfg.QPS = float32(opt.QPS)
	cfg.Burst = opt.Burst

	kubeClient, err := kubeclientset.NewForConfig(restclientset.AddUserAgent(cfg, "mpi-operator"))
	if err != nil {
		return err
	}
	mpiJobClient, err := mpijobclientset.NewForConfig(cfg)
	if err != nil {
		return err
	}
	var volcanoClient volcanoclient.Interface
	var schedClient schedclientset.Interface
	if opt.GangSchedulingName == options.GangSchedulerVolcano {
		volcanoClient, err = volcanoclient.NewForConfig(restclientset.AddUserAgent(cfg, "volcano"))
	} else if opt.GangSchedulingName != "" {
		schedClient, err = schedclientset.NewForConfig(restclientset.AddUserAgent(cfg, "scheduler-plugins"))
	}
	if err != nil {
		return err
	}
	if _, err := mpiJobClient.KubeflowV2beta1().MPIJobs(namespace).List(context.TODO(), metav1.ListOptions{}); err != nil {
		return fmt.Errorf("the MPIJob CRD is not served: %w", err)
	}
	if err := kubeflowscheme.AddToScheme(clientgokubescheme.Scheme); err != nil {
		return fmt.Errorf("CoreV1 Add Scheme failed: %w", err)
	}

	var kubeOpts []kubeinformers.SharedInformerOption
	var kubeflowOpts []informers.SharedInformerOption
	if namespace != metav1.NamespaceAll {
		kubeOpts = append(kubeOpts, kubeinformers.WithNamespace(namespace))
		kubeflowOpts = append(kubeflowOpts, informers.WithNamespace(namespace))
	}
	kubeInformerFactory := kubeinformers.NewSharedInformerFactoryWithOptions(kubeClient, 0, kubeOpts...)
	kubeflowInformerFactory := informers.NewSharedInformerFactoryWithOptions(mpiJobClient, 0, kubeflowOpts...)

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	controller, err := controllersv1.NewMPIJobController(
		ctx,
		kubeClient,
		mpiJobClient,
		volcanoClient,
		schedClient,
		kubeInformerFactory.Core().V1().ConfigMaps(),
		kubeInformerFactory.Core().V1().Secrets(),
		kubeInformerFactory.Core().V1().Services(),
		kubeInformerFactory.Batch().V1().Jobs(),
		kubeInformerFactory.Core().V1().Pods(),
		kubeInformerFactory.Scheduling().V1().PriorityClasses(),
		kubeflowInformerFactory.Kubeflow().V2beta1().MPIJobs(),
		opt)
	if err != nil {
		return fmt.Errorf("setting up the controller: %w", err)
	}
	stopCh := kubeapiserver.SetupSignalHandler()
	go kubeInformerFactory.Start(stopCh)
	go kubeflowInformerFactory.Start(stopCh)
	if controller.PodGroupCtrl != nil {
		controller.PodGroupCtrl.StartInformerFactory(stopCh)
	}
	return controller.Run(opt.Threadiness, stopCh)
}
