-- Health of a Kubeflow Trainer TrainJob (trainer.kubeflow.org/v1alpha1) as Trainer v2.3.0
-- reports it.
--
-- Derived from github.com/kubeflow/trainer at v2.3.0 (commit 658725bdae5c7e3a0854d93ac6ff492e109a22ab):
--   pkg/apis/trainer/v1alpha1/trainjob_types.go: the condition types Suspended, Complete and
--     Failed (metav1.Condition); status.jobsStatus, per replicated job of the JobSet, counts its
--     child Jobs ready, succeeded, failed, active and suspended;
--   pkg/controller/trainjob_controller.go (setSuspendedCondition, setFailedCondition,
--     reconcileDeadline): Suspended while spec.suspend is true; Failed for an unknown runtime or
--     past spec.activeDeadlineSeconds (reason DeadlineExceeded);
--   pkg/runtime/framework/plugins/jobset/jobset.go (Status): Complete and Failed are the
--     JobSet's Completed and Failed conditions, with their reason and message; jobsStatus is the
--     JobSet's replicatedJobsStatus.
-- A TrainJob has no Running condition. sigs.k8s.io/jobset v0.12.0 (commit
-- 09e9a3bb4b64dbe75b5b0119d3623903f0434643, pkg/controllers/jobset_controller.go
-- calculateReplicatedJobStatuses) counts a child Job ready when its ready and succeeded pods
-- reach its parallelism (or completions), active while it has a pending or running pod. So the
-- TrainJob runs when every replicated job has a Job ready or succeeded and no active Job that is
-- not ready; a replicated job whose pods are pending or held by a gang scheduler has an active
-- Job that is not ready (its PodGroup says what holds it).
-- Kueue (sigs.k8s.io/kueue v0.19.2, commit 8eab68778fc1b52affe165fdf5af29d1e9b4f3cb,
-- pkg/controller/jobs/trainjob/trainjob_webhook.go Default, trainjob_controller.go
-- RunWithPodSetsInfo) creates a TrainJob labelled kueue.x-k8s.io/queue-name suspended and
-- resumes it when it admits it: such a job is queued, not suspended by its owner.
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

-- "node: 1 active" for a replicated job's counts, the zero ones left out
local function counts(jobs)
  local parts = {}
  for _, field in ipairs({"ready", "succeeded", "active", "failed", "suspended"}) do
    if (jobs[field] or 0) > 0 then
      table.insert(parts, jobs[field] .. " " .. field)
    end
  end
  if #parts == 0 then
    return jobs.name .. ": not started"
  end
  return jobs.name .. ": " .. table.concat(parts, ", ")
end

local status = obj.status or {}
local conditions = status.conditions or {}
local labels = obj.metadata.labels or {}
local spec = obj.spec or {}

local failed = trueCondition(conditions, "Failed")
if failed ~= nil then
  return {status = "Degraded", message = said(failed, "Failed")}
end
local complete = trueCondition(conditions, "Complete")
if complete ~= nil then
  return {status = "Healthy", message = said(complete, "Complete")}
end
if spec.suspend == true then
  local queue = labels["kueue.x-k8s.io/queue-name"]
  if queue ~= nil then
    return {status = "Progressing", message = "Queued in Kueue (LocalQueue " .. queue .. "): suspended until Kueue admits it"}
  end
  return {status = "Suspended", message = said(trueCondition(conditions, "Suspended"), "spec.suspend is true")}
end
local jobsStatus = status.jobsStatus or {}
if #jobsStatus == 0 then
  return {status = "Progressing", message = "Waiting for Trainer to create the JobSet"}
end
local summary = {}
local waiting = {}
for _, jobs in ipairs(jobsStatus) do
  local ready = jobs.ready or 0
  table.insert(summary, counts(jobs))
  if ready + (jobs.succeeded or 0) == 0 or (jobs.active or 0) > ready then
    table.insert(waiting, counts(jobs))
  end
end
if #waiting == 0 then
  return {status = "Healthy", message = "Running (" .. table.concat(summary, "; ") .. ")"}
end
return {status = "Progressing", message = "Not running yet (" .. table.concat(waiting, "; ") .. "): its pods wait to be scheduled or started (under a gang scheduler, its PodGroup says what holds them)"}
