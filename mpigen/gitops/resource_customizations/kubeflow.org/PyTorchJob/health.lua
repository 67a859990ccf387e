-- Health of a Kubeflow PyTorchJob (kubeflow.org/v1) as training-operator v1.9.4 reports it.
--
-- Derived from github.com/kubeflow/training-operator at v1.9.4 (commit 4445c12aa62e4345b0c2c6ac9b215a70eca46ed7):
--   pkg/apis/kubeflow.org/v1/common_types.go: the condition types Created, Running, Restarting,
--     Succeeded, Suspended and Failed, each True or False;
--   pkg/controller.v1/pytorch/pytorchjob_controller.go (onOwnerCreateFunc, UpdateJobStatus):
--     Created when the job is first seen; Running once the Master runs (without a Master: a
--     Worker); Succeeded when the Master (without one: every Worker) completes; Restarting or
--     Failed when replicas fail;
--   pkg/controller.v1/common/job.go (ReconcileJobs): Suspended while spec.runPolicy.suspend is
--     true; Failed past runPolicy.backoffLimit or activeDeadlineSeconds;
--   pkg/controller.v1/common/pod.go (ReconcilePods): Restarting or Failed when a pod fails;
--   pkg/util/status.go (setCondition, filterOutCondition): one condition per type, none changes
--     once Failed is True; Succeeded or Failed turn Running to False.
-- Kueue (sigs.k8s.io/kueue v0.19.2, commit 8eab68778fc1b52affe165fdf5af29d1e9b4f3cb,
-- pkg/controller/jobframework/defaults.go ApplyDefaultForSuspend and
-- pkg/controller/jobs/kubeflow/kubeflowjob/kubeflowjob_controller.go RunWithPodSetsInfo) creates
-- a job labelled kueue.x-k8s.io/queue-name suspended and resumes it when it admits it: such a job
-- is queued, not suspended by its owner. A job held by a gang scheduler stays Created: its
-- PodGroup says why.
--
-- Only Lua's base and table libraries are used, so the script runs as an argocd-cm health check
-- without resource.customizations.useOpenLibs.

local function trueCondition(conditions, conditionType)
  for _, condition in ipairs(conditions) do
    if condition.type == conditionType and condition.status == "True" then
      return condition
    end
  end
  return nil
end

local function said(condition, fallback)
  if condition ~= nil and condition.message ~= nil and condition.message ~= "" then
    return condition.message
  end
  if condition ~= nil and condition.reason ~= nil and condition.reason ~= "" then
    return condition.reason
  end
  return fallback
end

local conditions = {}
if obj.status ~= nil and obj.status.conditions ~= nil then
  conditions = obj.status.conditions
end
local labels = obj.metadata.labels or {}
local runPolicy = (obj.spec or {}).runPolicy or {}

local failed = trueCondition(conditions, "Failed")
if failed ~= nil then
  return {status = "Degraded", message = said(failed, "Failed")}
end
local succeeded = trueCondition(conditions, "Succeeded")
if succeeded ~= nil then
  return {status = "Healthy", message = said(succeeded, "Succeeded")}
end
if runPolicy.suspend == true then
  local queue = labels["kueue.x-k8s.io/queue-name"]
  if queue ~= nil then
    return {status = "Progressing", message = "Queued in Kueue (LocalQueue " .. queue .. "): suspended until Kueue admits it"}
  end
  return {status = "Suspended", message = said(trueCondition(conditions, "Suspended"), "spec.runPolicy.suspend is true")}
end
local restarting = trueCondition(conditions, "Restarting")
if restarting ~= nil then
  return {status = "Progressing", message = said(restarting, "Restarting")}
end
local running = trueCondition(conditions, "Running")
if running ~= nil then
  return {status = "Healthy", message = said(running, "Running")}
end
local created = trueCondition(conditions, "Created")
if created ~= nil then
  return {status = "Progressing", message = said(created, "Created") .. " Not running yet: its pods wait to be scheduled or started (under a gang scheduler, its PodGroup says what holds them)"}
end
return {status = "Progressing", message = "Waiting for training-operator to take the job"}
