module mpigen.dev/tests/argocdlua

go 1.26.0

require (
	github.com/itchyny/gojq v0.12.19
	github.com/yuin/gopher-lua v1.1.2
	layeh.com/gopher-json v0.0.0-20190114024228-97fed8db8427
	sigs.k8s.io/yaml v1.6.0
)

require (
	github.com/itchyny/timefmt-go v0.1.8 // indirect
	go.yaml.in/yaml/v2 v2.4.3 // indirect
)
