-- Health of a Volcano PodGroup (scheduling.volcano.sh/v1beta1) as Volcano v1.15.1 reports it.
--
-- Derived from volcano.sh/volcano at v1.15.1 (commit 0a56ed331897f5455916a44d3075671376d731d6):
--   config/crd/volcano/bases/scheduling.volcano.sh_podgroups.yaml: status.phase is one of
--     Pending, Running, Unknown, Inqueue, Completed; spec.queue defaults to "default";
--   pkg/scheduler/framework/session.go (getPodGroupPhase, jobStatus): Running or Completed
--     once minMember pods are scheduled (Completed when all of them completed); Unknown while
--     some pods run and the gang is unschedulable; otherwise Pending, or Inqueue once the enqueue
--     action admitted the PodGroup to its queue;
--   pkg/scheduler/plugins/gang/gang.go (OnSessionClose): a gang that is not ready gets the
--     condition Unschedulable (reason NotEnoughResources, message "N/M tasks in gang
--     unschedulable: ..." with the scheduler's fit errors), a ready one Scheduled. A condition
--     keeps its last status until its type is set again, so Unschedulable is read only while the
--     phase says the gang is not running.
--
-- Only Lua's base and table libraries are used, so the script runs as an argocd-cm health check
-- without resource.customizations.useOpenLibs.

local function unschedulable(conditions)
  for _, condition in ipairs(conditions) do
    if condition.type == "Unschedulable" and condition.status == "True" and condition.message ~= nil and condition.message ~= "" then
      return condition.message
    end
  end
  return nil
end

local status = obj.status or {}
local spec = obj.spec or {}
local phase = status.phase or ""
local queue = spec.queue or "default"
local minMember = spec.minMember or 0
local why = unschedulable(status.conditions or {})

if phase == "Running" then
  return {status = "Healthy", message = "Running: " .. (status.running or 0) .. " pods running (minMember " .. minMember .. ")"}
end
if phase == "Completed" then
  return {status = "Healthy", message = "Completed: " .. (status.succeeded or 0) .. " pods succeeded"}
end
if phase == "Unknown" then
  return {status = "Degraded", message = "Unknown: " .. (why or "some of the gang's pods run, the others cannot be scheduled")}
end
if phase == "Inqueue" then
  return {status = "Progressing", message = "Inqueue: " .. (why or "admitted to queue " .. queue .. ", waiting for its pods to be scheduled")}
end
if phase == "Pending" then
  return {status = "Progressing", message = "Pending: " .. (why or "waiting for Volcano to admit it to queue " .. queue)}
end
return {status = "Progressing", message = "Waiting for the Volcano scheduler"}
